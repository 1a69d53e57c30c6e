// ascgen devkit backend: std::map specialised for the library's own small enum keys (AscendC::Hardware,
// AscendC::TPosition), so its CPU-debug tables cost what an array costs.
//
// Why. The library's CPU-debug code keeps constant tables in ConstDefiner (`positionHardMap`,
// `bufferInitLen`, `hardwareCpuBufferMap`) and copies them by value where a reference would do
// (`auto bufferInitLen = ConstDefiner::Instance().bufferInitLen;`, 54 places): in its API checks on every
// DataCopy and buffer access (hundreds of thousands of node allocations per launch of a vector kernel), and
// in TPipe::Init's fill of every local buffer, whose loop bound `bufferInitLen.at(hard)` is looked up again
// for each word (the int32_t stores may alias the map's uint32_t values). Measured, that bookkeeping was
// about half of a devkit launch's CPU (docs/devkit.md, "Run time of a launch").
//
// How, with the library's code unchanged. The standard allows a program to specialise a standard class
// template for a type it defines (here: the library's enums), so std::map<AscendC::Hardware, V> and
// std::map<AscendC::TPosition, V> are this class in every devkit translation unit (stub_def.h includes this
// header before any library code names those maps). Same interface as std::map for what code uses (ordered
// iteration, find, at, operator[], insert, emplace, erase...), same results; the storage is one slot per
// enumerator value (both enums are uint8_t with fewer than 64 enumerators), so a copy moves a few bytes and a
// lookup is a bit test. A key whose value is 64 or more is never found, and inserting one throws
// std::length_error naming the table, never a wrong slot.
#pragma once
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <functional>
#include <string>
#include <initializer_list>
#include <iterator>
#include <map>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace AscendC {
enum class Hardware : uint8_t;   // impl/utils/common_types.h
enum class TPosition : uint8_t;  // impl/basic_api/common_types.h
}  // namespace AscendC

namespace ascgen_devkit {

// Self: the std::map specialisation deriving from this, so the comparisons below take it exactly and win
// over std's templates for std::map (which read libstdc++'s internals).
template <class K, class V, class Self>
class EnumMap {
    static constexpr unsigned kSlots = 64;

public:
    using key_type = K;
    using mapped_type = V;
    using value_type = std::pair<const K, V>;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using key_compare = std::less<K>;
    using allocator_type = std::allocator<value_type>;
    using reference = value_type&;
    using const_reference = const value_type&;
    using pointer = value_type*;
    using const_pointer = const value_type*;

    template <bool Const>
    class Iter {
        using Owner = std::conditional_t<Const, const EnumMap, EnumMap>;
        friend class EnumMap;
        Owner* map_ = nullptr;
        unsigned slot_ = kSlots;
        Iter(Owner* map, unsigned slot) : map_(map), slot_(slot) {}

    public:
        using iterator_category = std::bidirectional_iterator_tag;
        using value_type = EnumMap::value_type;
        using difference_type = std::ptrdiff_t;
        using pointer = std::conditional_t<Const, const value_type*, value_type*>;
        using reference = std::conditional_t<Const, const value_type&, value_type&>;
        Iter() = default;
        template <bool C = Const, class = std::enable_if_t<C>>
        Iter(const Iter<false>& other) : map_(other.map_), slot_(other.slot_) {}
        reference operator*() const { return map_->entry(slot_); }
        pointer operator->() const { return &map_->entry(slot_); }
        Iter& operator++() { slot_ = map_->next_from(slot_ + 1); return *this; }
        Iter operator++(int) { Iter was = *this; ++*this; return was; }
        Iter& operator--() { slot_ = map_->previous_before(slot_); return *this; }
        Iter operator--(int) { Iter was = *this; --*this; return was; }
        friend bool operator==(const Iter& a, const Iter& b) { return a.slot_ == b.slot_; }
        friend bool operator!=(const Iter& a, const Iter& b) { return a.slot_ != b.slot_; }
        template <bool> friend class Iter;
    };
    using iterator = Iter<false>;
    using const_iterator = Iter<true>;
    using reverse_iterator = std::reverse_iterator<iterator>;
    using const_reverse_iterator = std::reverse_iterator<const_iterator>;

    EnumMap() = default;
    EnumMap(std::initializer_list<value_type> items) { insert(items); }
    template <class It>
    EnumMap(It first, It last) { insert(first, last); }
    EnumMap(const EnumMap& other) { copy_from(other); }
    EnumMap(EnumMap&& other) noexcept(std::is_nothrow_move_constructible_v<V>) { move_from(other); }
    EnumMap& operator=(const EnumMap& other) {
        if (this != &other) { clear(); copy_from(other); }
        return *this;
    }
    EnumMap& operator=(EnumMap&& other) noexcept(std::is_nothrow_move_constructible_v<V>) {
        if (this != &other) { clear(); move_from(other); }
        return *this;
    }
    EnumMap& operator=(std::initializer_list<value_type> items) { clear(); insert(items); return *this; }
    ~EnumMap() { clear(); }

    iterator begin() noexcept { return {this, next_from(0)}; }
    const_iterator begin() const noexcept { return {this, next_from(0)}; }
    const_iterator cbegin() const noexcept { return begin(); }
    iterator end() noexcept { return {this, kSlots}; }
    const_iterator end() const noexcept { return {this, kSlots}; }
    const_iterator cend() const noexcept { return end(); }
    reverse_iterator rbegin() noexcept { return reverse_iterator(end()); }
    const_reverse_iterator rbegin() const noexcept { return const_reverse_iterator(end()); }
    reverse_iterator rend() noexcept { return reverse_iterator(begin()); }
    const_reverse_iterator rend() const noexcept { return const_reverse_iterator(begin()); }

    bool empty() const noexcept { return present_ == 0; }
    size_type size() const noexcept { return size_type(__builtin_popcountll(present_)); }
    size_type max_size() const noexcept { return kSlots; }
    key_compare key_comp() const { return key_compare(); }

    bool contains(const K& key) const noexcept { return has(slot_of(key)); }
    size_type count(const K& key) const noexcept { return contains(key) ? 1 : 0; }
    iterator find(const K& key) noexcept { return {this, contains(key) ? slot_of(key) : kSlots}; }
    const_iterator find(const K& key) const noexcept { return {this, contains(key) ? slot_of(key) : kSlots}; }
    iterator lower_bound(const K& key) noexcept { return {this, next_from(slot_of(key))}; }
    const_iterator lower_bound(const K& key) const noexcept { return {this, next_from(slot_of(key))}; }
    iterator upper_bound(const K& key) noexcept { return {this, next_from(slot_of(key) + 1)}; }
    const_iterator upper_bound(const K& key) const noexcept { return {this, next_from(slot_of(key) + 1)}; }
    std::pair<iterator, iterator> equal_range(const K& key) { return {lower_bound(key), upper_bound(key)}; }
    std::pair<const_iterator, const_iterator> equal_range(const K& key) const {
        return {lower_bound(key), upper_bound(key)};
    }

    V& at(const K& key) {
        if (!contains(key)) throw std::out_of_range("map::at");
        return entry(slot_of(key)).second;
    }
    const V& at(const K& key) const {
        if (!contains(key)) throw std::out_of_range("map::at");
        return entry(slot_of(key)).second;
    }
    V& operator[](const K& key) { return try_emplace(key).first->second; }

    template <class... Args>
    std::pair<iterator, bool> try_emplace(const K& key, Args&&... args) {
        unsigned slot = slot_for_insert(key);
        if (has(slot)) return {{this, slot}, false};
        new (raw(slot)) value_type(std::piecewise_construct, std::forward_as_tuple(key),
                                   std::forward_as_tuple(std::forward<Args>(args)...));
        present_ |= bit(slot);
        return {{this, slot}, true};
    }
    template <class... Args>
    std::pair<iterator, bool> emplace(Args&&... args) {
        value_type item(std::forward<Args>(args)...);
        return try_emplace(item.first, std::move(item.second));
    }
    std::pair<iterator, bool> insert(const value_type& item) { return try_emplace(item.first, item.second); }
    template <class P, class = std::enable_if_t<std::is_constructible_v<value_type, P&&>>>
    std::pair<iterator, bool> insert(P&& item) { return emplace(std::forward<P>(item)); }
    iterator insert(const_iterator, const value_type& item) { return insert(item).first; }
    template <class It>
    void insert(It first, It last) { for (; first != last; ++first) insert(*first); }
    void insert(std::initializer_list<value_type> items) { insert(items.begin(), items.end()); }
    template <class M>
    std::pair<iterator, bool> insert_or_assign(const K& key, M&& value) {
        auto placed = try_emplace(key, std::forward<M>(value));
        if (!placed.second) placed.first->second = std::forward<M>(value);
        return placed;
    }

    size_type erase(const K& key) {
        if (!contains(key)) return 0;
        destroy(slot_of(key));
        return 1;
    }
    iterator erase(const_iterator at) {
        unsigned slot = at.slot_;
        destroy(slot);
        return {this, next_from(slot + 1)};
    }
    iterator erase(iterator at) { return erase(const_iterator(at)); }
    void clear() noexcept {
        if constexpr (std::is_trivially_destructible_v<value_type>) {
            present_ = 0;
        } else {
            while (present_) destroy(unsigned(__builtin_ctzll(present_)));
        }
    }
    void swap(EnumMap& other) { EnumMap held(std::move(other)); other = std::move(*this); *this = std::move(held); }

    friend bool operator==(const Self& a, const Self& b) {
        return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
    }
    friend bool operator!=(const Self& a, const Self& b) { return !(a == b); }
    friend bool operator<(const Self& a, const Self& b) {
        return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
    }
    friend bool operator>(const Self& a, const Self& b) { return b < a; }
    friend bool operator<=(const Self& a, const Self& b) { return !(b < a); }
    friend bool operator>=(const Self& a, const Self& b) { return !(a < b); }
    friend void swap(Self& a, Self& b) { a.swap(b); }

private:
    static constexpr uint64_t bit(unsigned slot) { return uint64_t(1) << slot; }
    static unsigned slot_of(const K& key) noexcept {
        unsigned value = unsigned(static_cast<std::underlying_type_t<K>>(key));
        return value < kSlots ? value : kSlots;  // out of range: never present
    }
    static unsigned slot_for_insert(const K& key) {
        unsigned slot = slot_of(key);
        if (slot == kSlots) {
            throw std::length_error("ascgen devkit: a std::map keyed by an AscendC enum (ascgen_devkit/enum_map.h) "
                                    "holds enumerator values below 64; this key is " +
                                    std::to_string(unsigned(static_cast<std::underlying_type_t<K>>(key))));
        }
        return slot;
    }
    bool has(unsigned slot) const noexcept { return slot < kSlots && (present_ & bit(slot)) != 0; }
    unsigned next_from(unsigned slot) const noexcept {
        if (slot >= kSlots) return kSlots;
        uint64_t rest = present_ >> slot;
        return rest ? slot + unsigned(__builtin_ctzll(rest)) : kSlots;
    }
    unsigned previous_before(unsigned slot) const noexcept {
        uint64_t below = slot >= kSlots ? present_ : present_ & (bit(slot) - 1);
        return below ? 63u - unsigned(__builtin_clzll(below)) : kSlots;
    }
    void* raw(unsigned slot) { return &slots_[slot]; }
    value_type& entry(unsigned slot) { return *std::launder(reinterpret_cast<value_type*>(&slots_[slot])); }
    const value_type& entry(unsigned slot) const {
        return *std::launder(reinterpret_cast<const value_type*>(&slots_[slot]));
    }
    void destroy(unsigned slot) noexcept {
        entry(slot).~value_type();
        present_ &= ~bit(slot);
    }
    void copy_from(const EnumMap& other) {
        for (uint64_t rest = other.present_; rest; rest &= rest - 1) {
            unsigned slot = unsigned(__builtin_ctzll(rest));
            new (raw(slot)) value_type(other.entry(slot));
            present_ |= bit(slot);
        }
    }
    void move_from(EnumMap& other) {
        for (uint64_t rest = other.present_; rest; rest &= rest - 1) {
            unsigned slot = unsigned(__builtin_ctzll(rest));
            new (raw(slot)) value_type(std::move(other.entry(slot)));
            present_ |= bit(slot);
        }
        other.clear();
    }

    uint64_t present_ = 0;
    struct alignas(value_type) Slot {
        unsigned char bytes[sizeof(value_type)];
    };
    Slot slots_[kSlots];
};

}  // namespace ascgen_devkit

namespace std {
template <class V>
class map<AscendC::Hardware, V, less<AscendC::Hardware>, allocator<pair<const AscendC::Hardware, V>>>
    : public ascgen_devkit::EnumMap<AscendC::Hardware, V, map<AscendC::Hardware, V>> {
    using Base = ascgen_devkit::EnumMap<AscendC::Hardware, V, map<AscendC::Hardware, V>>;

public:
    using Base::Base;
    using Base::operator=;
    map() = default;
};
template <class V>
class map<AscendC::TPosition, V, less<AscendC::TPosition>, allocator<pair<const AscendC::TPosition, V>>>
    : public ascgen_devkit::EnumMap<AscendC::TPosition, V, map<AscendC::TPosition, V>> {
    using Base = ascgen_devkit::EnumMap<AscendC::TPosition, V, map<AscendC::TPosition, V>>;

public:
    using Base::Base;
    using Base::operator=;
    map() = default;
};
}  // namespace std
