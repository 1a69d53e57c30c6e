// The sort intrinsics of dav_c220 (Sort32 / MrgSort / Sort / TopK in the library).
//
// Entries are 8 bytes: the score (float, or half followed by 2 zero bytes) in the low 4 bytes, a uint32
// index in the high 4 bytes. vbitsort sorts each group of 32 (score, index) pairs by score, highest first;
// vmrgsort4 merges up to four sorted entry lists into one, highest score first. Equal scores keep their
// input order (the earlier element, or the lower-numbered list, first), as on the builtin backend.
#pragma once
#include <cstring>
#include <vector>
#include "vector.h"

namespace ascgen_devkit {

template <class T>
inline float entry_score(const uint8_t* entry) {
    T s;
    std::memcpy(&s, entry, sizeof(T));
    return float(wide_t<T>(s));
}

}  // namespace ascgen_devkit

// vbitsort(dst, scores, indices, repeat): iteration r sorts scores[32 r .. 32 r + 31] with their indices into
// the 32 entries at dst + 256 r bytes.
template <class T>
inline void vbitsort(T* dst, T* scores, uint32_t* indices, uint64_t repeat) {
    using namespace ascgen_devkit;
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "vbitsort: half or float scores");
    tick();
    check_ub(scores, repeat * 32 * sizeof(T), "vbitsort");
    check_ub(indices, repeat * 32 * 4, "vbitsort");
    check_ub(dst, repeat * 32 * 8, "vbitsort");
    std::vector<uint8_t> out(32 * 8);
    for (uint64_t r = 0; r < repeat; ++r) {
        int order[32];
        float key[32];
        for (int i = 0; i < 32; ++i) order[i] = i, key[i] = float(wide_t<T>(scores[r * 32 + i]));
        for (int i = 1; i < 32; ++i)  // stable insertion sort, descending
            for (int j = i; j > 0 && key[order[j]] > key[order[j - 1]]; --j) std::swap(order[j], order[j - 1]);
        std::fill(out.begin(), out.end(), uint8_t(0));
        for (int i = 0; i < 32; ++i) {
            std::memcpy(&out[i * 8], &scores[r * 32 + order[i]], sizeof(T));
            std::memcpy(&out[i * 8 + 4], &indices[r * 32 + order[i]], 4);
        }
        std::memcpy(reinterpret_cast<uint8_t*>(dst) + r * 256, out.data(), out.size());  // dst may be a source
    }
    ::ascgen::rt::cost(::ascgen::rt::pipe::V, repeat * 32 * 5);
}

// vmrgsort4(dst, lists[4], lengths, config): lengths holds each list's entry count in 16 bits (list 0 in
// bits 15:0); config: repeat [7:0], valid lists [11:8] (0b11, 0b111 or 0b1111: lists 0-1, 0-2, 0-3),
// exhausted-suspension [12] (stop when a list runs out). With several repeats the four lists lie back to
// back: repeat r starts every list and dst r * (sum of the four lengths) entries further. get_vms4_sr()
// then says how many entries the last repeat took from each list.
template <class T>
inline void vmrgsort4(T* dst, T** lists, uint64_t lengths, uint64_t config) {
    using namespace ascgen_devkit;
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "vmrgsort4: half or float scores");
    tick();
    const uint64_t repeat = config & 0xff, valid = (config >> 8) & 0xf;
    const bool suspend = (config >> 12) & 1;
    if (valid != 0x3 && valid != 0x7 && valid != 0xf)
        ::ascgen::rt::fail(::ascgen::rt::Fault::Assert, at("vmrgsort4"),
                           "vmrgsort4: valid-list bits 0x%llx are not 0x3, 0x7 or 0xf", (unsigned long long)valid);
    const int n = valid == 0x3 ? 2 : valid == 0x7 ? 3 : 4;
    uint64_t len[4], per_repeat = 0, total = 0;
    for (int k = 0; k < 4; ++k) {
        len[k] = (lengths >> (16 * k)) & 0xffff;
        per_repeat += len[k];
        if (k < n) total += len[k];
    }
    const uint8_t* src[4];
    for (int k = 0; k < n; ++k) {
        src[k] = reinterpret_cast<const uint8_t*>(lists[k]);
        if (repeat) check_ub(src[k], ((repeat - 1) * per_repeat + len[k]) * 8, "vmrgsort4");
    }
    if (repeat) check_ub(dst, ((repeat - 1) * per_repeat + total) * 8, "vmrgsort4");
    std::vector<uint8_t> out(total * 8 + 8);
    uint64_t taken[4] = {0, 0, 0, 0};
    for (uint64_t r = 0; r < repeat; ++r) {
        for (auto& t : taken) t = 0;
        uint64_t m = 0;
        for (;;) {
            int best = -1;
            float best_score = 0;
            bool exhausted = false;
            for (int k = 0; k < n; ++k) {
                if (taken[k] >= len[k]) { exhausted = true; continue; }
                float s = entry_score<T>(src[k] + (r * per_repeat + taken[k]) * 8);
                if (best < 0 || s > best_score) best = k, best_score = s;
            }
            if (best < 0 || (exhausted && suspend)) break;
            std::memcpy(&out[m * 8], src[best] + (r * per_repeat + taken[best]) * 8, 8);
            ++taken[best], ++m;
        }
        std::memcpy(reinterpret_cast<uint8_t*>(dst) + r * per_repeat * 8, out.data(), m * 8);
    }
    regs.vms4_sr = taken[0] | (taken[1] << 16) | (taken[2] << 32) | (taken[3] << 48);
    ::ascgen::rt::cost(::ascgen::rt::pipe::V, repeat * total);
}
inline int64_t get_vms4_sr() { return int64_t(ascgen_devkit::regs.vms4_sr); }
