// A tiny "host program" for rt::host_launch: registers host GM (as aclrtMalloc does) and launches a kernel
// by name, as a rewritten `kernel<<<blocks, nullptr, stream>>>(...)` does.
#include <cstdint>
#include <cstring>

#include "ascgen/rt.h"

using namespace ascgen::rt;

struct Ctx {
    int64_t* out;
};

static void thunk(void* p) {
    auto* c = static_cast<Ctx*>(p);
    int64_t i = block_idx();
    int64_t slot = i + (core_type() == CoreType::AIC ? 32 : 0);   // AIC and AIV write different slots
    gm_access(c->out + slot, 8, true, ASCGEN_HERE);   // THUNK_LINE
    c->out[slot] = 1 + i + 100 * sub_block_idx() + 1000 * (core_type() == CoreType::AIC);
}

static int64_t g_buf[64];

// argv[1]: kernel name; argv[2]: "oob" makes the second launch write past the buffer.
extern "C" int host_main(int argc, char** argv) {
    memset(g_buf, 0, sizeof g_buf);
    gm_register(g_buf, sizeof g_buf, "hostbuf");
    Ctx c{g_buf};
    host_launch(argv[1], thunk, &c, 4, ASCGEN_HERE);
    if (argc > 2 && strcmp(argv[2], "oob") == 0) {
        Ctx bad{g_buf + 62};
        host_launch(argv[1], thunk, &bad, 4, ASCGEN_HERE);
    }
    gm_unregister(g_buf);
    int64_t sum = 0;
    for (int64_t v : g_buf) sum += v;
    return (int)sum;
}
