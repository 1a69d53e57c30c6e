// ascgen: runs an operator's registered host tiling function, unchanged, for one set of inputs.
//
// Linked with the op's op_host tiling sources (their IMPL_OP_OPTILING registrations fill metadef's
// gert::OpImplRegistry when the program starts) and ascgen's build of the public host pieces (metadef's
// registry, context builders and runtime types, opbase's helpers, asc-devkit's platform code over the
// product table). `tiling_runner REQUEST` reads the request ascgen/ops/host_tiling.py wrote:
//
//   op <OpType>
//   soc <SoC version of the product table>
//   capacity <tiling data bytes>
//   input <DT_...> <format: ND, NCHW...> <rank> <dims...>  (one line per input, in the definition's order)
//   output <DT_...> <format> <rank> <dims...>
//   input_instances <n per declared input>  (optional: 0 for an optional input left out; without the line,
//                                             every declared input is given once)
//   attr bool|int|float|str <value>                       (in the definition's order)
//   attr list_int|list_float|list_bool <n> <values...>
//   platform <label> <key> <value>                        (optional: one platform resource replaced, as an
//                                                          op's tiling UT sets its own, e.g. AICoreSpec ub_size)
//
// and prints one line per result, each starting "ASCGEN-TILING " (the op's own prints go to stdout as
// well); a refusal or a failed tiling is "ASCGEN-TILING error <stage> <message>" and exit code 3. The
// process is the isolation: a tiling function that crashes kills only this program.
#include <array>
#include <cstdint>
#include <map>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/context_builder/op_tiling_context_builder.h"
#include "base/context_builder/op_tiling_parse_context_builder.h"
#include "exe_graph/runtime/continuous_vector.h"
#include "exe_graph/runtime/tensor.h"
#include "exe_graph/runtime/tiling_context.h"
#include "exe_graph/runtime/tiling_data.h"
#include "exe_graph/runtime/tiling_parse_context.h"
#include "graph/utils/type_utils.h"
#include "platform/platform_infos_def.h"
#include "register/op_impl_registry.h"
#include "register/op_impl_registry_base.h"
#include "ascgen_ops_request.h"

namespace {

constexpr size_t kMaxWorkspaces = 64;   // the count a tiling function may ask for (GetWorkspaceSizes(n))

}  // namespace

using namespace ascgen_ops;

// metadef's OpTilingContextBuilder appends the output tensors to the inputs but leaves them in its first
// output slots too (base/context_builder/op_tiling_context_builder.cc: output_values_.resize(kOutputNum)
// keeps them), so the tiling key, block dim, atomic flag... start as the output tensors' addresses. An op
// that never sets its key (ops-math muls on ascend950: its kernel dispatches on none) reported a pointer
// as its key, and a third output's address made the atomic flag a coin toss. Zeroed here: an op that sets
// none of them is written for 0 (muls' key, no atomic clearing).
static void clear_scalar_outputs(gert::TilingContext* context) {
    context->SetTilingKey(0);
    context->SetBlockDim(0);
    context->SetNeedAtomic(false);
    context->SetTilingCond(0);
    context->SetScheduleMode(0);
    context->SetLocalMemorySize(0);
    context->SetAicpuBlockDim(0);
}

int main(int argc, char** argv) {
    if (argc != 2) fail("request", "usage: tiling_runner REQUEST");
    const Request r = read_request(argv[1]);
    if (r.capacity == 0) fail("request", "capacity is required");

    fe::PlatFormInfos platform;
    platform.Init();
    if (!platform.LoadSoc(r.soc)) fail("platform", "SoC " + r.soc + " is not in ascgen's product table");
    for (const auto& [label, key, value] : r.platform) {
        std::map<std::string, std::string> res;
        try {
            platform.GetPlatformResWithLock(label, res);
        } catch (const std::exception& e) {
            fail("platform", e.what());
        }
        res[key] = value;
        platform.SetPlatformResWithLock(label, res);
    }
    platform.SetCoreNumByCoreType("AiCore");

    const auto* funcs = gert::OpImplRegistry::GetInstance().GetOpImpl(r.op.c_str());
    if (funcs == nullptr || funcs->tiling == nullptr) {
        std::string known;
        for (const auto& kv : gert::OpImplRegistry::GetInstance().GetAllTypesToImpl())
            if (kv.second.tiling != nullptr) known += (known.empty() ? "" : ", ") + std::string(kv.first.GetString());
        fail("registry", "the op_host sources register no tiling function for " + r.op +
                         " (IMPL_OP_OPTILING); they register one for: " + (known.empty() ? "none" : known));
    }

    // TilingParse (the op's TilingPrepare): fills the compile info from the platform, as the graph
    // compiler does once per op; the tiling function reads it back through GetCompileInfo.
    // An op without TilingParse has no compile info, but metadef's builder refuses a null one: such an op
    // gets a zeroed block it never reads.
    static uint64_t no_compile_info[8] = {};
    std::unique_ptr<void, void (*)(void*)> compile_info(no_compile_info, [](void*) {});
    if (funcs->tiling_parse != nullptr) {
        if (funcs->compile_info_creator == nullptr) fail("parse", "TilingParse is registered without a compile info type");
        compile_info = std::unique_ptr<void, void (*)(void*)>(funcs->compile_info_creator(),
                                                              funcs->compile_info_deleter ? funcs->compile_info_deleter
                                                                                          : [](void*) {});
        gert::OpTilingParseContextBuilder parse;
        describe_node(parse, r);
        for (size_t i = 0; i < r.inputs.size(); ++i)
            parse.InputTensorDesc(i, r.inputs[i].dtype, r.inputs[i].format, r.inputs[i].format);
        for (size_t i = 0; i < r.outputs.size(); ++i)
            parse.OutputTensorDesc(i, r.outputs[i].dtype, r.outputs[i].format, r.outputs[i].format);
        auto holder = parse.CompiledJson("{}").CompiledInfo(compile_info.get()).PlatformInfo(&platform).Build();
        if (holder.GetContext() == nullptr) fail("parse", "metadef's OpTilingParseContextBuilder built no context");
        const auto status = funcs->tiling_parse(reinterpret_cast<gert::KernelContext*>(holder.GetContext()));
        if (status != ge::GRAPH_SUCCESS) fail("parse", "the op's TilingParse function returned " + std::to_string(status));
    }

    auto inputs = tensors(r.inputs);
    auto outputs = tensors(r.outputs);
    auto workspace = gert::ContinuousVector::Create<size_t>(kMaxWorkspaces);
    gert::OpTilingContextBuilder builder;     // the tensors carry their data types and formats
    describe_node(builder, r);
    auto holder = builder.CompileInfo(compile_info.get())
                      .PlatformInfo(&platform)
                      .TilingDataSize(r.capacity)
                      .Workspace(reinterpret_cast<gert::ContinuousVector*>(workspace.get()))
                      .InputTensors(raw(inputs))
                      .OutputTensors(raw(outputs))
                      .Build();
    gert::TilingContext* context = holder.GetContext();
    if (context == nullptr) fail("context", "metadef's OpTilingContextBuilder built no context");
    clear_scalar_outputs(context);

    const auto status = funcs->tiling(context);
    std::cout << std::flush;
    if (status != ge::GRAPH_SUCCESS) fail("tiling", "the op's tiling function returned " + std::to_string(status));

    std::printf("ASCGEN-TILING tiling_key %llu\n", static_cast<unsigned long long>(context->GetTilingKey()));
    std::printf("ASCGEN-TILING block_dim %u\n", context->GetBlockDim());
    std::printf("ASCGEN-TILING schedule_mode %u\n", context->GetScheduleMode());
    std::printf("ASCGEN-TILING need_atomic %d\n", context->NeedAtomic() ? 1 : 0);
    std::printf("ASCGEN-TILING workspace");
    const size_t n = context->GetWorkspaceNum();
    const size_t* sizes = n ? context->GetWorkspaceSizes(n) : nullptr;
    for (size_t i = 0; i < n; ++i) std::printf(" %zu", sizes[i]);
    std::printf("\n");
    const auto* data = context->GetRawTilingData();
    std::printf("ASCGEN-TILING tiling_data ");
    const auto* bytes = static_cast<const uint8_t*>(data->GetData());
    for (size_t i = 0; i < data->GetDataSize(); ++i) std::printf("%02x", bytes[i]);
    std::printf("\nASCGEN-TILING done\n");
    return 0;
}
