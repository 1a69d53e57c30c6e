"""The two stand-ins that make the library's CPU-debug bookkeeping cheap (docs/devkit.md, "Run time of a
launch") behave exactly as the standard types they replace:

* ascgen_devkit/enum_map.h: std::map keyed by AscendC::Hardware / AscendC::TPosition, against the real
  std::map keyed by the underlying integer, over a random sequence of every operation the header offers;
* ascgen_devkit/default_engine.h: std::default_random_engine, against std::minstd_rand0 (libstdc++'s default
  engine): the default-seeded sequence across the end of its table, seeds, discard, ==, << and >>,
  distributions and std::shuffle.

Then, through a real kernel: local memory a kernel reads before writing holds the same words as before the
stand-ins (the library fills it with the default-seeded minstd_rand0 sequence in TPipe::Init)."""
from __future__ import annotations

import subprocess

import numpy as np

from ascgen import resources
from ascgen.runtime.build import find_compiler
from ascgen.runtime.loader import load
from tests import devkit_tree

EQUIVALENCE = r"""
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <sstream>
#include <algorithm>
#include <vector>
#include "ascgen_devkit/enum_map.h"
namespace AscendC {
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };
enum class TPosition : uint8_t { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, SPM, TSCM, MAX };
}
#include "ascgen_devkit/default_engine.h"

static int failures = 0;
#define EXPECT(cond) do { if (!(cond)) { std::printf("FAIL line %d: %s\n", __LINE__, #cond); ++failures; } } while (0)

using Flat = std::map<AscendC::TPosition, std::string>;
using Real = std::map<uint8_t, std::string>;
static_assert(std::is_base_of_v<ascgen_devkit::EnumMap<AscendC::TPosition, std::string, Flat>, Flat>, "specialised");

static bool same(const Flat& f, const Real& r) {
    if (f.size() != r.size() || f.empty() != r.empty()) return false;
    auto fi = f.begin();
    for (auto& [k, v] : r) {
        if (fi == f.end() || uint8_t(fi->first) != k || fi->second != v) return false;
        ++fi;
    }
    if (fi != f.end()) return false;
    // backwards too
    auto rb = r.rbegin();
    for (auto it = f.rbegin(); it != f.rend(); ++it, ++rb) {
        if (uint8_t(it->first) != rb->first || it->second != rb->second) return false;
    }
    return true;
}

static void maps() {
    std::mt19937 rng(7);
    Flat f{{AscendC::TPosition::VECIN, "in"}, {AscendC::TPosition::GM, "gm"}};
    Real r{{uint8_t(AscendC::TPosition::VECIN), "in"}, {uint8_t(AscendC::TPosition::GM), "gm"}};
    EXPECT(same(f, r));
    for (int step = 0; step < 20000; ++step) {
        uint8_t k = uint8_t(rng() % 16);
        auto key = AscendC::TPosition(k);
        std::string v = std::to_string(rng() % 1000);
        switch (rng() % 12) {
        case 0: EXPECT(f.insert({key, v}).second == r.insert({k, v}).second); break;
        case 1: f[key] = v; r[k] = v; break;
        case 2: EXPECT(f.erase(key) == r.erase(k)); break;
        case 3: EXPECT(f.count(key) == r.count(k)); break;
        case 4: {
            auto fi = f.find(key);
            auto ri = r.find(k);
            EXPECT((fi == f.end()) == (ri == r.end()));
            if (fi != f.end()) EXPECT(fi->second == ri->second);
            break;
        }
        case 5: {
            bool threw_f = false, threw_r = false;
            std::string a, b;
            try { a = f.at(key); } catch (const std::out_of_range&) { threw_f = true; }
            try { b = r.at(k); } catch (const std::out_of_range&) { threw_r = true; }
            EXPECT(threw_f == threw_r && a == b);
            break;
        }
        case 6: EXPECT(f.emplace(key, v).second == r.emplace(k, v).second); break;
        case 7: EXPECT(f.try_emplace(key, v).second == r.try_emplace(k, v).second); break;
        case 8: {   // copy, then mutate the copy: the original is untouched
            Flat g = f;
            Real s = r;
            g[key] = "copy";
            s[k] = "copy";
            EXPECT(same(g, s));
            f = g;
            r = s;
            break;
        }
        case 9: {
            auto fl = f.lower_bound(key), fu = f.upper_bound(key);
            auto rl = r.lower_bound(k), ru = r.upper_bound(k);
            EXPECT((fl == f.end()) == (rl == r.end()));
            if (fl != f.end()) EXPECT(uint8_t(fl->first) == rl->first);
            EXPECT((fu == f.end()) == (ru == r.end()));
            if (fu != f.end()) EXPECT(uint8_t(fu->first) == ru->first);
            break;
        }
        case 10: {   // erase through an iterator returns the next element
            auto fi = f.find(key);
            auto ri = r.find(k);
            if (fi != f.end()) {
                auto fn = f.erase(fi);
                auto rn = r.erase(ri);
                EXPECT((fn == f.end()) == (rn == r.end()));
                if (fn != f.end()) EXPECT(uint8_t(fn->first) == rn->first);
            }
            break;
        }
        case 11:
            if (rng() % 50 == 0) { f.clear(); r.clear(); }
            break;
        }
        EXPECT(same(f, r));
        if (failures) return;
    }
    Flat moved = std::move(f);
    EXPECT(same(moved, r) && f.empty());
    Flat assigned;
    assigned = {{AscendC::TPosition::CO1, "co1"}, {AscendC::TPosition::A1, "a1"}};
    EXPECT(assigned.size() == 2 && assigned.begin()->second == "a1");
    EXPECT(assigned == Flat({{AscendC::TPosition::A1, "a1"}, {AscendC::TPosition::CO1, "co1"}}));
    bool refused = false;
    try { assigned[AscendC::TPosition(200)] = "x"; } catch (const std::length_error&) { refused = true; }
    EXPECT(refused && assigned.size() == 2 && assigned.count(AscendC::TPosition(200)) == 0);
    const std::map<AscendC::Hardware, uint32_t> lens = {{AscendC::Hardware::UB, 192 * 1024}, {AscendC::Hardware::GM, 1 << 20}};
    auto copy = lens;   // what the library does in its checks
    EXPECT(copy.at(AscendC::Hardware::GM) == (1u << 20) && copy.find(AscendC::Hardware::L1) == copy.end());
}

static void engines() {
    std::default_random_engine fast;
    std::minstd_rand0 real;
    static_assert(std::is_same_v<std::default_random_engine, ascgen_devkit::DefaultEngine>, "renamed");
    // the whole table and past its end (2^18 words)
    for (int i = 0; i < (1 << 18) + 5000; ++i) {
        if (fast() != real()) { std::printf("FAIL: output %d differs\n", i); ++failures; return; }
        if (i == 1000 || i == (1 << 18) - 1) {
            std::ostringstream a, b;
            a << fast;
            b << real;
            EXPECT(a.str() == b.str());
        }
    }
    std::default_random_engine seeded(12345);
    std::minstd_rand0 seeded_real(12345);
    for (int i = 0; i < 100; ++i) EXPECT(seeded() == seeded_real());
    std::default_random_engine d1, d2;
    d1.discard(777);
    for (int i = 0; i < 777; ++i) d2();
    EXPECT(d1 == d2);
    std::minstd_rand0 r3;
    r3.discard(777);
    EXPECT(d1() == r3());
    std::default_random_engine s;
    s();
    s.seed();
    std::minstd_rand0 s_real;
    EXPECT(s() == s_real());
    std::stringstream state;
    state << s_real;
    std::default_random_engine loaded;
    state >> loaded;
    EXPECT(loaded() == s_real());
    std::default_random_engine u;
    std::minstd_rand0 u_real;
    std::uniform_int_distribution<int> dist(0, 99);
    std::uniform_real_distribution<double> real_dist(0.0, 1.0);
    for (int i = 0; i < 200; ++i) {
        EXPECT(dist(u) == dist(u_real));
        EXPECT(real_dist(u) == real_dist(u_real));
    }
    std::vector<int> a(50), b(50);
    for (int i = 0; i < 50; ++i) a[i] = b[i] = i;
    std::default_random_engine sh;
    std::minstd_rand0 sh_real;
    std::shuffle(a.begin(), a.end(), sh);
    std::shuffle(b.begin(), b.end(), sh_real);
    EXPECT(a == b);
}

int main() {
    maps();
    engines();
    std::printf("%s\n", failures ? "FAILED" : "OK");
    return failures ? 1 : 0;
}
"""


def test_the_enum_map_and_the_tabled_engine_behave_as_the_standard_types(tmp_path):
    src = tmp_path / "equivalence.cpp"
    src.write_text(EQUIVALENCE)
    exe = tmp_path / "equivalence"
    include = resources.runtime_dir() / "devkit" / "include"
    build = subprocess.run([find_compiler(), "-std=c++17", "-O1", "-Wall", "-Werror", f"-I{include}", str(src),
                            "-o", str(exe)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-3000:]
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip().endswith("OK"), run.stdout[-3000:]


UNINITIALISED = r"""
#include "kernel_operator.h"
// Copies UB words the kernel never wrote to GM: what TPipe::Init left there.
extern "C" __global__ __aicore__ void leftover(GM_ADDR out) {
    AscendC::GlobalTensor<int32_t> og;
    og.SetGlobalBuffer((__gm__ int32_t*)out, 2048);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2048 * sizeof(int32_t));
    AscendC::DataCopy(og, buf.Get<int32_t>(), 2048);
}
"""


def _minstd_rand0(count: int) -> np.ndarray:
    out = np.empty(count, np.int64)
    x = 1
    for i in range(count):
        x = x * 16807 % 2147483647
        out[i] = x
    return out


def test_local_memory_holds_the_librarys_fill_words_before_the_kernel_writes_it():
    devkit_tree.require()
    mod = load(UNINITIALISED, "ascend910b", backend="devkit", filename="leftover.cpp")
    out = np.zeros(2048, np.int32)
    mod.launch("leftover", 1, out)
    # TPipe::Init fills the GM pool first (1 MB), then UB from the start of a new default-seeded engine:
    # UB's first words are the engine's first outputs (the library's TBuf starts at UB offset 0).
    assert np.array_equal(out.astype(np.int64), _minstd_rand0(2048))
