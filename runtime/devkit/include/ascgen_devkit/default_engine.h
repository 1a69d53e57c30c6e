// ascgen devkit backend: std::default_random_engine as the same engine with its default-seeded sequence read
// from a table, so the library's fill of every local buffer costs a copy, not a modular multiplication per word.
//
// Why. TPipe::Init fills each local buffer (about 2 MB per core: GM pool, UB, L1, L0A/B/C, BIAS, FIXBUF) on
// every launch with `std::default_random_engine e; ... p[i] = e();` (asc-devkit impl/basic_api
// kernel_tpipe_impl.h, TPipe::SetBufferCtx, and its dav_3510 / l300 forms). libstdc++'s engine is minstd_rand0,
// x = x * 16807 mod (2^31 - 1): a dependent chain of about 12 cycles per word, the largest part of a vector
// kernel's launch once the library's tables are arrays (enum_map.h).
//
// How, with the library's code unchanged and the same values. stub_def.h includes <random> and then this
// header, which renames the token `default_random_engine` for what is parsed after it (the library and the
// kernel) to DefaultEngine below. DefaultEngine is minstd_rand0 in every observable way: the same outputs
// from any seed, seed(), discard(), min()/max(), ==, << and >>. Only its default-seeded start differs in how
// the numbers are produced: the first kTableLength outputs are read from a table computed once per module
// (the buffers hold exactly the words they held before); at the end of the table, or on any other use, the
// engine continues from the equivalent minstd_rand0 state (for this engine the state is the last output).
#pragma once
#include <cstddef>
#include <cstdint>
#include <istream>
#include <ostream>
#include <random>

namespace ascgen_devkit {

class DefaultEngine {
    using Engine = std::minstd_rand0;
    // The largest buffer the library fills is 1 MB (the GM pool; L1 on some products): 2^18 words.
    static constexpr std::size_t kTableLength = std::size_t(1) << 18;
    static constexpr std::size_t kOffTable = ~std::size_t(0);

    static const uint32_t* table() {
        static const uint32_t* words = [] {
            static uint32_t out[kTableLength];
            Engine engine;
            for (auto& word : out) word = uint32_t(engine());
            return out;
        }();
        return words;
    }

public:
    using result_type = Engine::result_type;
    static constexpr result_type multiplier = Engine::multiplier;
    static constexpr result_type increment = Engine::increment;
    static constexpr result_type modulus = Engine::modulus;
    static constexpr result_type default_seed = Engine::default_seed;
    static constexpr result_type min() { return Engine::min(); }
    static constexpr result_type max() { return Engine::max(); }

    DefaultEngine() : next_(0) {}
    explicit DefaultEngine(result_type seed) : engine_(seed) {}
    template <class Seq, class = decltype(std::declval<Seq&>().generate((uint32_t*)nullptr, (uint32_t*)nullptr))>
    explicit DefaultEngine(Seq& seq) : engine_(seq) {}

    void seed(result_type value = default_seed) { engine_.seed(value); next_ = kOffTable; }
    template <class Seq>
    auto seed(Seq& seq) -> decltype(seq.generate((uint32_t*)nullptr, (uint32_t*)nullptr), void()) {
        engine_.seed(seq);
        next_ = kOffTable;
    }

    result_type operator()() {
        if (next_ < kTableLength) return table()[next_++];
        leave_table();
        return engine_();
    }
    void discard(unsigned long long count) { leave_table(); engine_.discard(count); }

    friend bool operator==(const DefaultEngine& a, const DefaultEngine& b) { return a.state() == b.state(); }
    friend bool operator!=(const DefaultEngine& a, const DefaultEngine& b) { return !(a == b); }
    template <class Char, class Traits>
    friend std::basic_ostream<Char, Traits>& operator<<(std::basic_ostream<Char, Traits>& os, const DefaultEngine& e) {
        return os << e.state();
    }
    template <class Char, class Traits>
    friend std::basic_istream<Char, Traits>& operator>>(std::basic_istream<Char, Traits>& is, DefaultEngine& e) {
        e.next_ = kOffTable;
        return is >> e.engine_;
    }

private:
    // The minstd_rand0 this engine equals now: after n default-seeded outputs, the one seeded with the nth.
    Engine state() const {
        if (next_ == kOffTable) return engine_;
        return next_ == 0 ? Engine() : Engine(table()[next_ - 1]);
    }
    void leave_table() {
        if (next_ != kOffTable) { engine_ = state(); next_ = kOffTable; }
    }

    Engine engine_;
    std::size_t next_ = kOffTable;  // the next table index while default-seeded, else kOffTable
};

}  // namespace ascgen_devkit

// The library writes `std::default_random_engine`, so the name it becomes must be found in std.
namespace std {
using ascgen_devkit_default_random_engine = ::ascgen_devkit::DefaultEngine;
}
#define default_random_engine ascgen_devkit_default_random_engine
