// A heap array for temporaries inside one op (a std::vector without <vector>'s compile cost).
#pragma once
#include <cstddef>
#include <cstdlib>

namespace ascgen {
namespace lib {

template <class T>
class Scratch {
public:
    explicit Scratch(size_t n) : p_(static_cast<T*>(std::malloc((n ? n : 1) * sizeof(T)))), n_(n) {}
    ~Scratch() { std::free(p_); }
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
    T* data() { return p_; }
    T& operator[](size_t i) { return p_[i]; }
    size_t size() const { return n_; }

private:
    T* p_;
    size_t n_;
};

// A growing text buffer (for printf and DumpTensor), without <string>.
class Text {
public:
    Text() : p_(static_cast<char*>(std::malloc(256))), n_(0), cap_(256) { p_[0] = '\0'; }
    ~Text() { std::free(p_); }
    Text(const Text&) = delete;
    Text& operator=(const Text&) = delete;
    void append(const char* s, size_t len) {
        if (n_ + len + 1 > cap_) {
            while (n_ + len + 1 > cap_) cap_ *= 2;
            p_ = static_cast<char*>(std::realloc(p_, cap_));
        }
        for (size_t i = 0; i < len; ++i) p_[n_ + i] = s[i];
        n_ += len;
        p_[n_] = '\0';
    }
    const char* c_str() const { return p_; }
    size_t size() const { return n_; }
    void drop_trailing_newlines() {
        while (n_ > 0 && p_[n_ - 1] == '\n') p_[--n_] = '\0';
    }

private:
    char* p_;
    size_t n_, cap_;
};

}  // namespace lib
}  // namespace ascgen
