// Storage for a search tree's nodes that never moves. The whole memory budget is reserved as
// address space when the arena is made (mmap, nothing committed), and the kernel supplies pages
// as the tree first touches them: growing the tree never copies it, so a search never stops the
// clock for its tree's size (a std::vector that doubles copies the whole tree while the clock runs:
// 84 ms for 256 MB on the 2-core CI machine). A cleared arena keeps its pages, so the next search
// reuses them without faulting them in again; the pages go back to the system only on release()
// or destruction, which callers keep off the clock.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

namespace troyka::agents {

template <class T>
class NodeArena {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "nodes are copied as bytes and never destroyed one by one");

 public:
  // Reserves room for `capacity` nodes; where the system refuses that much address space (strict
  // overcommit, a ulimit), as much as it grants, halving down to one page's worth.
  explicit NodeArena(std::size_t capacity) {
    while (capacity > 0) {
      void* memory = mmap(nullptr, capacity * sizeof(T), PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (memory != MAP_FAILED) {
        data_ = static_cast<T*>(memory);
        capacity_ = capacity;
        return;
      }
      if (capacity * sizeof(T) <= kPage) break;
      capacity /= 2;
    }
  }
  ~NodeArena() { unmap(); }
  NodeArena(const NodeArena&) = delete;
  NodeArena& operator=(const NodeArena&) = delete;
  NodeArena(NodeArena&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)),
        touched_(std::exchange(other.touched_, 0)) {}
  NodeArena& operator=(NodeArena&&) = delete;

  T& operator[](std::size_t index) { return data_[index]; }
  const T& operator[](std::size_t index) const { return data_[index]; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  // The most memory the arena has held since it was made or released: the pages it touched.
  std::size_t bytes() const { return touched_ * sizeof(T); }

  // Appends `count` default nodes and returns the first; nullptr (and nothing appended) when they
  // do not fit.
  T* push(std::size_t count) {
    if (count > capacity_ - size_) return nullptr;
    T* first = data_ + size_;
    for (std::size_t i = 0; i < count; ++i) new (first + i) T{};
    size_ += count;
    touched_ = std::max(touched_, size_);
    return first;
  }
  // Makes the `count` nodes from `first` the arena's only nodes, at its front.
  void keep_only(std::size_t first, std::size_t count) {
    if (first != 0) std::memmove(static_cast<void*>(data_), data_ + first, count * sizeof(T));
    size_ = count;
  }
  void clear() { size_ = 0; }
  // Gives the pages back to the system; the reservation stays, so the arena can grow again.
  void release() {
    if (data_ != nullptr && touched_ > 0) madvise(data_, touched_ * sizeof(T), MADV_DONTNEED);
    size_ = touched_ = 0;
  }

 private:
  static constexpr std::size_t kPage = 4096;

  void unmap() {
    if (data_ != nullptr) munmap(data_, capacity_ * sizeof(T));
    data_ = nullptr;
    size_ = capacity_ = touched_ = 0;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  std::size_t touched_ = 0;  // the most nodes held since the pages were last given back
};

}  // namespace troyka::agents
