// ascgen: runs an operator's registered InferShape (and InferDataType) functions, unchanged, for one set of
// inputs and attributes.
//
// Linked with the op's op_host/*_infershape*.cpp (their IMPL_OP_INFERSHAPE registrations fill metadef's
// gert::OpImplRegistry when the program starts) and the same host runtime as the tiling runner.
// `infershape_runner REQUEST` reads the tiling runner's request format (ascgen_ops_request.h); an output
// line carries the data type and format the output is declared with, and no dimensions. It prints
//
//   ASCGEN-INFER output <index> <rank> <dims...>     (one per output, from the op's InferShape)
//   ASCGEN-INFER dtype <index> <DT_...>              (one per output, only when the op registers InferDataType)
//   ASCGEN-INFER done
//
// A refusal or a failed function is "ASCGEN-INFER error <stage> <message>" and exit code 3; the op's own
// messages are on stderr. The tensors carry shapes, types and formats, no data (a data-dependent InferShape
// sees null data).
#include <cstdio>
#include <string>
#include <vector>

#include "base/context_builder/op_infer_datatype_context_builder.h"
#include "base/context_builder/op_infer_shape_context_builder.h"
#include "exe_graph/runtime/infer_datatype_context.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "graph/utils/type_utils.h"
#include "register/op_impl_registry.h"
#include "register/op_impl_registry_base.h"
#include "ascgen_ops_request.h"

using namespace ascgen_ops;

namespace {

template <typename Funcs>
void infer_shapes(const Funcs& funcs, const Request& r) {
    auto inputs = tensors(r.inputs);
    gert::OpInferShapeContextBuilder builder;
    describe_node(builder, r);
    for (size_t i = 0; i < r.outputs.size(); ++i)
        builder.OutputTensorDesc(i, r.outputs[i].dtype, r.outputs[i].format, r.outputs[i].format);
    auto holder = builder.InputTensors(raw(inputs)).Build();
    gert::InferShapeContext* context = holder.GetContext();
    if (context == nullptr) fail("context", "metadef's OpInferShapeContextBuilder built no context");
    const auto status = funcs.infer_shape(context);
    std::cout << std::flush;
    if (status != ge::GRAPH_SUCCESS) fail("infershape", "the op's InferShape function returned " + std::to_string(status));
    for (size_t i = 0; i < r.outputs.size(); ++i) {
        const gert::Shape* shape = context->GetOutputShape(i);
        if (shape == nullptr) fail("infershape", "no shape for output " + std::to_string(i));
        std::printf("%s output %zu %zu", line_prefix().c_str(), i, shape->GetDimNum());
        for (size_t d = 0; d < shape->GetDimNum(); ++d) std::printf(" %lld", static_cast<long long>(shape->GetDim(d)));
        std::printf("\n");
    }
}

template <typename Funcs>
void infer_dtypes(const Funcs& funcs, const Request& r) {
    gert::OpInferDataTypeContextBuilder builder;
    describe_node(builder, r);
    for (size_t i = 0; i < r.inputs.size(); ++i)
        builder.InputTensorDesc(i, r.inputs[i].dtype, r.inputs[i].format, r.inputs[i].format);
    for (size_t i = 0; i < r.outputs.size(); ++i) builder.OutputTensorDesc(i, r.outputs[i].format, r.outputs[i].format);
    auto holder = builder.Build();
    gert::InferDataTypeContext* context = holder.GetContext();
    if (context == nullptr) fail("context", "metadef's OpInferDataTypeContextBuilder built no context");
    const auto status = funcs.infer_datatype(context);
    std::cout << std::flush;
    if (status != ge::GRAPH_SUCCESS)
        fail("inferdatatype", "the op's InferDataType function returned " + std::to_string(status));
    for (size_t i = 0; i < r.outputs.size(); ++i) {
        const auto name = ge::TypeUtils::DataTypeToSerialString(context->GetOutputDataType(i));
        std::printf("%s dtype %zu %s\n", line_prefix().c_str(), i, name.c_str());
    }
}

}  // namespace

int main(int argc, char** argv) {
    line_prefix() = "ASCGEN-INFER";
    if (argc != 2) fail("request", "usage: infershape_runner REQUEST");
    const Request r = read_request(argv[1]);
    const auto* funcs = gert::OpImplRegistry::GetInstance().GetOpImpl(r.op.c_str());
    if (funcs == nullptr || funcs->infer_shape == nullptr) {
        std::string known;
        for (const auto& kv : gert::OpImplRegistry::GetInstance().GetAllTypesToImpl())
            if (kv.second.infer_shape != nullptr) known += (known.empty() ? "" : ", ") + std::string(kv.first.GetString());
        fail("registry", "the op_host sources register no InferShape function for " + r.op +
                         " (IMPL_OP_INFERSHAPE); they register one for: " + (known.empty() ? "none" : known));
    }
    infer_shapes(*funcs, r);
    if (funcs->infer_datatype != nullptr) infer_dtypes(*funcs, r);
    std::printf("%s done\n", line_prefix().c_str());
    return 0;
}
