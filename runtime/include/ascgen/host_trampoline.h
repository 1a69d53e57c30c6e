// Entry trampolines that ascgen generates for every kernel of a loaded module (ascgen/runtime/build/wrapper.py).
//
// `invoke(&kernel, args)` calls a kernel with each argument read from args[i], a pointer to an 8-byte slot
// holding the value (or, for a struct larger than 8 bytes passed by value, the address of its bytes) (Python fills the slots: pointer bits, integers, float bits, half bits, all
// little-endian); the parameter types come from the kernel's own declaration, deduced by the compiler,
// so the C types Python binds against are exactly the ones the compiler saw. `signature(&kernel)`
// describes those types for Python ("ptr:float32,uint32"). The wrapper defines ASCGEN_ENTRY_HALF /
// ASCGEN_ENTRY_BF16 as the library's half / bfloat16_t so they are named too.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <unistd.h>   // environ
#include <string>
#include <type_traits>
#include <utility>

// The backend's hooks (enter/leave a kernel, host launches): the builtin library's unless the backend
// names its own header (ascgen/runtime/backends/).
#if !defined(ASCGEN_BACKEND_HOOKS)
#define ASCGEN_BACKEND_HOOKS "ascgen/backend_hooks.h"
#endif
#include ASCGEN_BACKEND_HOOKS
#include "ascgen/host_crash.h"
#include "ascgen/rt.h"

namespace ascgen {
namespace entry {

template <class T>
const char* scalar_name() {
    using U = std::remove_cv_t<T>;
    if constexpr (std::is_same_v<U, bool>) return "bool";
    else if constexpr (std::is_same_v<U, void>) return "void";
    else if constexpr (std::is_integral_v<U>) {
        constexpr bool s = std::is_signed_v<U>;
        switch (sizeof(U)) {
            case 1: return s ? "int8" : "uint8";
            case 2: return s ? "int16" : "uint16";
            case 4: return s ? "int32" : "uint32";
            default: return s ? "int64" : "uint64";
        }
    } else if constexpr (std::is_same_v<U, float>) return "float32";
    else if constexpr (std::is_same_v<U, double>) return "float64";
    else if constexpr (std::is_enum_v<U>) return scalar_name<std::underlying_type_t<U>>();
    else return nullptr;   // a class type: the caller names half / bfloat16_t (see describe())
}

template <class T>
std::string describe_value() {
    using U = std::remove_cv_t<T>;
    if (const char* n = scalar_name<U>()) return n;
#if defined(ASCGEN_ENTRY_HALF)
    if constexpr (std::is_same_v<U, ASCGEN_ENTRY_HALF>) return "float16";
#endif
#if defined(ASCGEN_ENTRY_BF16)
    if constexpr (std::is_same_v<U, ASCGEN_ENTRY_BF16>) return "bfloat16";
#endif
    return "?" + std::to_string(sizeof(U));
}

template <class T>
std::string describe() {
    if constexpr (std::is_pointer_v<T>) return "ptr:" + describe_value<std::remove_pointer_t<T>>();
    else return describe_value<T>();
}

// A value of up to 8 bytes sits in its slot; a larger one (a tiling struct passed by value) is copied from
// the bytes the slot points at (Python keeps them alive for the launch, binding.py).
template <class T>
T load_arg(void* slot) {
    static_assert(std::is_trivially_copyable_v<T>,
                  "ascgen: a kernel parameter passed by value must be trivially copyable (plain data)");
    alignas(T) unsigned char storage[sizeof(T)];
    if constexpr (sizeof(T) <= 8) {
        std::memcpy(storage, slot, sizeof(T));
    } else {
        const void* bytes;
        std::memcpy(&bytes, slot, sizeof bytes);
        std::memcpy(storage, bytes, sizeof(T));
    }
    return *reinterpret_cast<T*>(storage);
}

template <class... P, std::size_t... I>
void call(void (*kernel)(P...), void** args, std::index_sequence<I...>) {
    kernel(load_arg<P>(args[I])...);
}

// `name` is remembered on the core thread for the isolated-mode crash report (host_crash.h).
template <class... P>
void invoke(void (*kernel)(P...), void** args, const char* name) {
    struct Mark {
        const char* saved = crash::current_kernel;
        ~Mark() { crash::current_kernel = saved; }
    } mark;
    crash::current_kernel = name;
    crash::on_core_thread();
    backend::enter_kernel();
    call(kernel, args, std::index_sequence_for<P...>{});
    backend::leave_kernel();
}

template <class... P>
const char* signature(void (*)(P...)) {
    static const std::string text = [] {
        std::string s;
        ((s += (s.empty() ? "" : ","), s += describe<P>()), ...);
        return s;
    }();
    return text.c_str();
}

// Host programs: `main` may be declared with or without (argc, argv). A fault in a launch throws
// rt::Cancelled through the program; it ends the program here with kCancelled (Python then raises the
// launch's typed error). C stdio is flushed so the program's output comes before Python's.
constexpr int kCancelled = -0x7A5C;

inline int main_of(int (*m)(), int, char**) { return m(); }
inline int main_of(int (*m)(int, char**), int argc, char** argv) { return m(argc, argv); }
inline int main_of(int (*m)(int, const char**), int argc, char** argv) {
    return m(argc, const_cast<const char**>(argv));
}
inline int main_of(int (*m)(int, char**, char**), int argc, char** argv) {   // main(argc, argv, envp)
    return m(argc, argv, environ);
}

template <class M>
int call_main(M m, int argc, char** argv) {
    int rc;
    try {
        rc = main_of(m, argc, argv);
    } catch (const ::ascgen::rt::Cancelled&) {
        rc = kCancelled;
    }
    std::fflush(nullptr);
    return rc;
}

}  // namespace entry
}  // namespace ascgen
