// ascgen: the request file of the op_host runners (tiling_runner.cpp, infershape_runner.cpp), shared by both.
//
// ascgen/ops/host_tiling.py writes it (the format is described in tiling_runner.cpp); both programs describe
// the op's node (type, input and output instances, attributes in the definition's order) from it the same way.
// Each runner answers in lines starting with its own prefix (line_prefix()); a refusal is
// "<prefix> error <stage> <message>" and exit code 3.
#ifndef ASCGEN_OPS_REQUEST_H
#define ASCGEN_OPS_REQUEST_H

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "exe_graph/runtime/tensor.h"
#include "graph/utils/type_utils.h"

namespace ascgen_ops {

// The prefix of every answer line ("ASCGEN-TILING", "ASCGEN-INFER"): each runner's main sets its own.
inline std::string& line_prefix() {
    static std::string prefix = "ASCGEN-TILING";
    return prefix;
}

struct Desc {
    ge::DataType dtype;
    ge::Format format;
    std::vector<int64_t> dims;
};

struct Attr {
    std::string kind;
    std::vector<std::string> values;
};

struct Request {
    std::string op, soc;
    size_t capacity = 0;
    std::vector<Desc> inputs, outputs;
    std::vector<uint32_t> input_instances;      // empty: one instance per input
    std::vector<Attr> attrs;
    std::vector<std::array<std::string, 3>> platform;     // (label, key, value) overrides
};

[[noreturn]] inline void fail(const std::string& stage, const std::string& message) {
    std::cout << std::flush;
    std::printf("%s error %s %s\n", line_prefix().c_str(), stage.c_str(), message.c_str());
    std::fflush(stdout);
    std::exit(3);
}

inline Desc read_desc(std::istringstream& in, const std::string& line) {
    std::string dtype, format;
    size_t rank = 0;
    in >> dtype >> format >> rank;
    Desc d{ge::TypeUtils::SerialStringToDataType(dtype), ge::TypeUtils::SerialStringToFormat(format), {}};
    if (d.dtype == ge::DT_UNDEFINED) fail("request", "unknown data type " + dtype + " in: " + line);
    if (d.format == ge::FORMAT_RESERVED) fail("request", "unknown format " + format + " in: " + line);
    for (size_t i = 0; i < rank; ++i) {
        int64_t v = 0;
        in >> v;
        d.dims.push_back(v);
    }
    if (!in) fail("request", "malformed tensor line: " + line);
    return d;
}

inline Request read_request(const char* path) {
    std::ifstream file(path);
    if (!file) fail("request", std::string("cannot read ") + path);
    Request r;
    std::string line;
    while (std::getline(file, line)) {
        std::istringstream in(line);
        std::string word;
        in >> word;
        if (word == "op") in >> r.op;
        else if (word == "soc") in >> r.soc;
        else if (word == "capacity") in >> r.capacity;
        else if (word == "input") r.inputs.push_back(read_desc(in, line));
        else if (word == "output") r.outputs.push_back(read_desc(in, line));
        else if (word == "input_instances") {
            for (uint32_t n = 0; in >> n;) r.input_instances.push_back(n);
        }
        else if (word == "attr") {
            Attr a;
            in >> a.kind;
            std::string v;
            if (a.kind == "str") {      // the rest of the line, spaces included
                std::getline(in >> std::ws, v);
                a.values.push_back(v);
            } else {
                while (in >> v) a.values.push_back(v);
            }
            r.attrs.push_back(a);
        } else if (word == "platform") {
            std::array<std::string, 3> res;
            in >> res[0] >> res[1] >> res[2];
            if (!in) fail("request", "malformed platform line: " + line);
            r.platform.push_back(res);
        } else if (!word.empty()) {
            fail("request", "unknown request line: " + line);
        }
    }
    if (r.op.empty() || r.soc.empty()) fail("request", "op and soc are required");
    return r;
}

template <typename B>
void append_attrs(B& builder, const std::vector<Attr>& attrs) {
    for (const auto& a : attrs) {
        const auto& v = a.values;
        size_t skip = a.kind.rfind("list_", 0) == 0 ? 1 : 0;   // a list's first value is its length
        if (a.kind == "bool") builder.AppendAttr(v.at(0) == "1");
        else if (a.kind == "int") builder.AppendAttr(static_cast<int64_t>(std::stoll(v.at(0))));
        else if (a.kind == "float") builder.AppendAttr(std::stof(v.at(0)));
        else if (a.kind == "str") builder.AppendAttr(ge::AscendString(v.at(0).c_str()));
        else if (a.kind == "list_int") {
            std::vector<int64_t> xs;
            for (size_t i = skip; i < v.size(); ++i) xs.push_back(std::stoll(v[i]));
            builder.AppendAttr(xs);
        } else if (a.kind == "list_float") {
            std::vector<float> xs;
            for (size_t i = skip; i < v.size(); ++i) xs.push_back(std::stof(v[i]));
            builder.AppendAttr(xs);
        } else if (a.kind == "list_bool") {
            std::vector<bool> xs;
            for (size_t i = skip; i < v.size(); ++i) xs.push_back(v[i] == "1");
            builder.AppendAttr(xs);
        } else {
            fail("request", "unknown attribute kind " + a.kind);
        }
    }
}

inline gert::StorageShape shape_of(const Desc& d) {
    gert::StorageShape s;
    for (auto v : d.dims) {
        s.MutableOriginShape().AppendDim(v);
        s.MutableStorageShape().AppendDim(v);
    }
    return s;
}

template <typename B>
void describe_node(B& builder, const Request& r) {
    builder.OpType(r.op.c_str()).OpName(r.op.c_str());
    if (r.input_instances.empty()) {
        builder.IONum(r.inputs.size(), r.outputs.size());
    } else {    // an optional input left out has no instance: GetOptionalInputTensor answers nullptr for it
        builder.IOInstanceNum(r.input_instances, std::vector<uint32_t>(r.outputs.size(), 1));
    }
    append_attrs(builder, r.attrs);
}

inline std::vector<std::unique_ptr<gert::Tensor>> tensors(const std::vector<Desc>& descs) {
    std::vector<std::unique_ptr<gert::Tensor>> out;
    for (const auto& d : descs) {
        out.push_back(std::make_unique<gert::Tensor>(shape_of(d), gert::StorageFormat(d.format, d.format, {}),
                                                     gert::kOnHost, d.dtype, nullptr));
    }
    return out;
}

inline std::vector<gert::Tensor*> raw(const std::vector<std::unique_ptr<gert::Tensor>>& ts) {
    std::vector<gert::Tensor*> out;
    for (const auto& t : ts) out.push_back(t.get());
    return out;
}

}  // namespace ascgen_ops

#endif  // ASCGEN_OPS_REQUEST_H
