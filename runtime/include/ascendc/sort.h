// Sorting: Sort32 (descending sort of 32 (score, index) pairs per repeat) and MrgSort (merge up to 4
// sorted lists); region proposals (8 elements each, the score at element 4): ProposalConcat /
// ProposalExtract (move 16 values per repeat into / out of one element of 16 proposals), RpSort16 (sort
// each 16 proposals by score) and MrgSort4 (merge up to 4 sorted proposal lists). Every entry takes 8 bytes in dst: a float score then a uint32 index, or for half a
// 2-byte score, 2 reserved bytes and the uint32 index in the high 4 bytes. Equal scores keep their input
// order (earlier element / lower-numbered list first).
#pragma once
#include <cstdint>
#include <cstring>

#include "ascendc/scratch.h"
#include "ascendc/vec_engine.h"

namespace AscendC {

constexpr int MRG_SORT_ELEMENT_LEN = 4;

struct MrgSort4Info {
    MrgSort4Info() {}
    MrgSort4Info(const uint16_t lengths[MRG_SORT_ELEMENT_LEN], bool suspend, uint16_t valid, uint16_t repeats)
        : ifExhaustedSuspension(suspend), validBit(valid), repeatTimes(repeats) {
        for (int i = 0; i < MRG_SORT_ELEMENT_LEN; ++i) elementLengths[i] = lengths[i];
    }
    uint16_t elementLengths[MRG_SORT_ELEMENT_LEN] = {0};
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 0;
    uint16_t repeatTimes = 1;
};

template <typename T>
struct MrgSortSrcList {
    MrgSortSrcList() {}
    MrgSortSrcList(const LocalTensor<T>& a, const LocalTensor<T>& b, const LocalTensor<T>& c, const LocalTensor<T>& d)
        : src1(a[0]), src2(b[0]), src3(c[0]), src4(d[0]) {}
    LocalTensor<T> src1, src2, src3, src4;
};

namespace detail {
struct SortEntry {
    float score;
    uint32_t index;
    uint8_t raw[8];   // the entry's bytes, copied through unchanged
};

template <typename T>
inline SortEntry read_entry(const uint8_t* p) {
    SortEntry e;
    std::memcpy(e.raw, p, 8);
    T s;
    std::memcpy(&s, p, sizeof(T));
    e.score = float(::ascgen::lib::compute_t<T>(s));
    std::memcpy(&e.index, p + 4, 4);
    return e;
}

inline uint16_t& mrg_counts(int i) {
    static thread_local uint16_t counts[MRG_SORT_ELEMENT_LEN];
    return counts[i];
}
}  // namespace detail

template <typename T>
inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
                   int32_t repeatTime, ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    static_assert(std::is_same<T, float>::value || std::is_same<T, half>::value, "Sort32: float or half scores");
    L::enter(loc);
    L::vec_operand(src0, int64_t(repeatTime) * 32, "Sort32", "src0", loc);
    L::vec_operand(src1, int64_t(repeatTime) * 32, "Sort32", "src1", loc);
    L::check_ub_bytes(dst, int64_t(repeatTime) * 32 * 8, "Sort32", "dst", loc);
    uint8_t* out = reinterpret_cast<uint8_t*>(dst.data());
    for (int r = 0; r < repeatTime; ++r) {
        int order[32];
        for (int i = 0; i < 32; ++i) order[i] = i;
        const T* s = src0.data() + r * 32;
        for (int i = 1; i < 32; ++i)   // stable insertion sort, descending
            for (int j = i; j > 0 && float(L::compute_t<T>(s[order[j]])) > float(L::compute_t<T>(s[order[j - 1]])); --j) {
                int t = order[j];
                order[j] = order[j - 1];
                order[j - 1] = t;
            }
        for (int i = 0; i < 32; ++i) {
            uint8_t* e = out + (int64_t(r) * 32 + i) * 8;
            std::memset(e, 0, 8);
            std::memcpy(e, s + order[i], sizeof(T));
            std::memcpy(e + 4, src1.data() + r * 32 + order[i], 4);
        }
    }
    ::ascgen::rt::cost(PIPE_V, uint64_t(repeatTime) * 32 * 5);
}

// Merge the valid lists (validBit 3, 7 or 15) into dst, highest score first; with repeatTimes > 1 the four
// lists are contiguous and each repeat moves past all four.
template <typename T>
inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& p,
                    ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    static_assert(std::is_same<T, float>::value || std::is_same<T, half>::value, "MrgSort: float or half scores");
    L::enter(loc);
    ASCGEN_ARG_CHECK(p.validBit == 3 || p.validBit == 7 || p.validBit == 15, loc,
                     "MrgSort: validBit %d must be 3, 7 or 15", int(p.validBit));
    const int lists = p.validBit == 3 ? 2 : p.validBit == 7 ? 3 : 4;
    const LocalTensor<T>* srcs[4] = {&src.src1, &src.src2, &src.src3, &src.src4};
    int64_t total = 0;
    for (int k = 0; k < lists; ++k) total += p.elementLengths[k];
    const int64_t per_repeat = [&] {
        int64_t all = 0;
        for (int k = 0; k < MRG_SORT_ELEMENT_LEN; ++k) all += p.elementLengths[k];
        return all;
    }();
    const int repeats = p.repeatTimes;
    for (int k = 0; k < lists; ++k)
        L::check_ub_bytes(*srcs[k], ((int64_t(repeats) - 1) * per_repeat + p.elementLengths[k]) * 8, "MrgSort", "src",
                          loc);
    L::check_ub_bytes(dst, (int64_t(repeats) - 1) * per_repeat * 8 + total * 8, "MrgSort", "dst", loc);
    L::Scratch<uint8_t> out(size_t(total) * 8 + 8);
    for (int r = 0; r < repeats; ++r) {
        int64_t pos[4] = {0, 0, 0, 0};
        int64_t n = 0;
        for (;;) {
            int best = -1;
            detail::SortEntry be{};
            bool exhausted = false;
            for (int k = 0; k < lists; ++k) {
                if (pos[k] >= p.elementLengths[k]) {
                    exhausted = true;
                    continue;
                }
                const uint8_t* e = reinterpret_cast<const uint8_t*>(srcs[k]->data()) + (r * per_repeat + pos[k]) * 8;
                detail::SortEntry cand = detail::read_entry<T>(e);
                if (best < 0 || cand.score > be.score) best = k, be = cand;
            }
            if (best < 0 || (exhausted && p.ifExhaustedSuspension)) break;
            std::memcpy(out.data() + n * 8, be.raw, 8);
            ++pos[best];
            ++n;
        }
        for (int k = 0; k < MRG_SORT_ELEMENT_LEN; ++k) detail::mrg_counts(k) = uint16_t(k < lists ? pos[k] : 0);
        std::memcpy(reinterpret_cast<uint8_t*>(dst.data()) + r * per_repeat * 8, out.data(), size_t(n) * 8);
    }
    ::ascgen::rt::cost(PIPE_V, uint64_t(repeats) * uint64_t(total));
}

// How many entries the latest MrgSort on this core took from each list (with ifExhaustedSuspension).
inline void GetMrgSortResult(uint16_t& list1, uint16_t& list2, uint16_t& list3, uint16_t& list4) {
    list1 = detail::mrg_counts(0);
    list2 = detail::mrg_counts(1);
    list3 = detail::mrg_counts(2);
    list4 = detail::mrg_counts(3);
}

// ---- region proposals: 8 elements of T each, element 4 is the score ----
constexpr int kProposalElems = 8;
constexpr int kProposalScore = 4;

template <typename T>
inline void ProposalConcat(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime, int32_t modeNumber,
                           ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    ASCGEN_ARG_CHECK(modeNumber >= 0 && modeNumber < kProposalElems, loc, "ProposalConcat: modeNumber %d outside 0..7",
                     int(modeNumber));
    L::vec_operand(src, int64_t(repeatTime) * 16, "ProposalConcat", "src", loc);
    L::check_ub_bytes(dst, int64_t(repeatTime) * 16 * kProposalElems * int64_t(sizeof(T)), "ProposalConcat", "dst", loc);
    for (int64_t i = 0; i < int64_t(repeatTime) * 16; ++i) dst.data()[i * kProposalElems + modeNumber] = src.data()[i];
    ::ascgen::rt::cost(PIPE_V, uint64_t(repeatTime) * 16);
}

template <typename T>
inline void ProposalExtract(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime, int32_t modeNumber,
                            ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    ASCGEN_ARG_CHECK(modeNumber >= 0 && modeNumber < kProposalElems, loc, "ProposalExtract: modeNumber %d outside 0..7",
                     int(modeNumber));
    L::check_ub_bytes(src, int64_t(repeatTime) * 16 * kProposalElems * int64_t(sizeof(T)), "ProposalExtract", "src", loc);
    L::vec_operand(dst, int64_t(repeatTime) * 16, "ProposalExtract", "dst", loc);
    for (int64_t i = 0; i < int64_t(repeatTime) * 16; ++i) dst.data()[i] = src.data()[i * kProposalElems + modeNumber];
    ::ascgen::rt::cost(PIPE_V, uint64_t(repeatTime) * 16);
}

namespace detail {
template <typename T>
inline float proposal_score(const T* p) {
    return float(::ascgen::lib::compute_t<T>(p[kProposalScore]));
}
}  // namespace detail

// Sort each group of 16 proposals by score, highest first (stable).
template <typename T>
inline void RpSort16(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeatTime,
                     ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    const int64_t elems = int64_t(repeatTime) * 16 * kProposalElems;
    L::vec_operand(src, elems, "RpSort16", "src", loc);
    L::vec_operand(dst, elems, "RpSort16", "dst", loc);
    for (int r = 0; r < repeatTime; ++r) {
        T group[16 * kProposalElems];
        std::memcpy(group, src.data() + int64_t(r) * 16 * kProposalElems, sizeof group);
        int order[16];
        for (int i = 0; i < 16; ++i) order[i] = i;
        for (int i = 1; i < 16; ++i)
            for (int j = i; j > 0 && detail::proposal_score(group + order[j] * kProposalElems) >
                                         detail::proposal_score(group + order[j - 1] * kProposalElems);
                 --j) {
                int t = order[j];
                order[j] = order[j - 1];
                order[j - 1] = t;
            }
        for (int i = 0; i < 16; ++i)
            std::memcpy(dst.data() + (int64_t(r) * 16 + i) * kProposalElems, group + order[i] * kProposalElems,
                        sizeof(T) * kProposalElems);
    }
    ::ascgen::rt::cost(PIPE_V, uint64_t(repeatTime) * 16 * 4);
}

// Merge up to 4 sorted proposal lists (elementLengths in proposals), highest score first.
template <typename T>
inline void MrgSort4(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& p,
                     ::ascgen::rt::Loc loc = ASCGEN_HERE) {
    namespace L = ::ascgen::lib;
    L::enter(loc);
    ASCGEN_ARG_CHECK(p.validBit == 3 || p.validBit == 7 || p.validBit == 15, loc,
                     "MrgSort4: validBit %d must be 3, 7 or 15", int(p.validBit));
    const int lists = p.validBit == 3 ? 2 : p.validBit == 7 ? 3 : 4;
    const LocalTensor<T>* srcs[4] = {&src.src1, &src.src2, &src.src3, &src.src4};
    int64_t per_repeat = 0, total = 0;
    for (int k = 0; k < MRG_SORT_ELEMENT_LEN; ++k) per_repeat += p.elementLengths[k];
    for (int k = 0; k < lists; ++k) total += p.elementLengths[k];
    const int repeats = p.repeatTimes;
    for (int k = 0; k < lists; ++k)
        L::vec_operand(*srcs[k], ((int64_t(repeats) - 1) * per_repeat + p.elementLengths[k]) * kProposalElems,
                       "MrgSort4", "src", loc);
    L::vec_operand(dst, ((int64_t(repeats) - 1) * per_repeat + total) * kProposalElems, "MrgSort4", "dst", loc);
    L::Scratch<T> out(size_t(total) * kProposalElems + 1);
    for (int r = 0; r < repeats; ++r) {
        int64_t pos[4] = {0, 0, 0, 0}, n = 0;
        for (;;) {
            int best = -1;
            float bs = 0.f;
            bool exhausted = false;
            for (int k = 0; k < lists; ++k) {
                if (pos[k] >= p.elementLengths[k]) {
                    exhausted = true;
                    continue;
                }
                float sc = detail::proposal_score(srcs[k]->data() + (r * per_repeat + pos[k]) * kProposalElems);
                if (best < 0 || sc > bs) best = k, bs = sc;
            }
            if (best < 0 || (exhausted && p.ifExhaustedSuspension)) break;
            std::memcpy(out.data() + n * kProposalElems, srcs[best]->data() + (r * per_repeat + pos[best]) * kProposalElems,
                        sizeof(T) * kProposalElems);
            ++pos[best];
            ++n;
        }
        for (int k = 0; k < MRG_SORT_ELEMENT_LEN; ++k) detail::mrg_counts(k) = uint16_t(k < lists ? pos[k] : 0);
        std::memcpy(dst.data() + r * per_repeat * kProposalElems, out.data(), size_t(n) * kProposalElems * sizeof(T));
    }
    ::ascgen::rt::cost(PIPE_V, uint64_t(repeats) * uint64_t(total));
}

}  // namespace AscendC
