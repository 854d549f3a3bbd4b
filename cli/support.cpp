#include "cli/support.h"

#include <fmt/format.h>

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>
#include <vector>

namespace troyka::cli {

void create_output_directory(const std::string& directory, std::string_view option) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error || !std::filesystem::is_directory(directory, error))
    throw usage_error(fmt::format("{}: cannot create the directory '{}'", option, directory),
                      error ? error.message() : "a file of that name is in the way");
}

void write_text_file(const std::string& path, std::string_view text, std::string_view what, std::string hint) {
  std::ofstream file(path, std::ios::binary);
  file << text;
  file.close();
  if (!file) throw usage_error(fmt::format("cannot write {} '{}'", what, path), std::move(hint));
}

std::string duration_text(double seconds) {
  const long long whole = std::llround(seconds);
  if (whole < 60) return fmt::format("{}s", whole);
  if (whole < 3600) return fmt::format("{}m{:02}s", whole / 60, whole % 60);
  return fmt::format("{}h{:02}m", whole / 3600, whole % 3600 / 60);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void run_jobs(int count, int threads, const std::function<void(int)>& job, const std::function<void()>& report) {
  std::mutex mutex;
  std::condition_variable changed;
  int done = 0, running = std::max(0, std::min(threads, count));
  std::exception_ptr failure;
  std::atomic<int> next{0};
  const auto work = [&] {
    for (int index = next++; index < count; index = next++) {
      try {
        job(index);
      } catch (...) {
        const std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        next = count;
      }
      const std::lock_guard lock(mutex);
      ++done;
      changed.notify_all();
    }
    const std::lock_guard lock(mutex);
    --running;
    changed.notify_all();
  };
  {
    std::vector<std::jthread> workers;
    for (int t = 0, n = running; t < n; ++t) workers.emplace_back(work);
    std::unique_lock lock(mutex);
    for (;;) {
      const bool ended = running == 0;
      const int seen = done;
      lock.unlock();
      report();
      lock.lock();
      if (ended) break;
      changed.wait_for(lock, std::chrono::milliseconds(500), [&] { return done != seen || running == 0; });
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace troyka::cli
