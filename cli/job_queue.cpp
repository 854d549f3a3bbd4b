#include "cli/job_queue.h"

#include <fmt/format.h>

#include <random>

#include "cli/api_error.h"

namespace troyka::cli {
namespace {

// Finished jobs are kept this long for the page to collect, then forgotten.
constexpr auto kKeepFinished = std::chrono::minutes(10);

}  // namespace

std::string random_id() {
  static std::mutex mutex;
  static std::mt19937_64 generator{std::random_device{}()};
  const std::lock_guard lock(mutex);
  return fmt::format("{:016x}{:016x}", generator(), generator());
}

JobQueue::JobQueue(int workers, std::size_t max_waiting) : max_waiting_(max_waiting) {
  for (int worker = 0; worker < workers; ++worker) workers_.emplace_back([this] { run_worker(); });
}

JobQueue::~JobQueue() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_arrived_.notify_all();
  job_ended_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

std::optional<std::string> JobQueue::submit(Work work) {
  const std::lock_guard lock(mutex_);
  if (queue_.size() >= max_waiting_ || stopping_) return std::nullopt;
  forget_old_jobs();
  auto job = std::make_shared<Job>();
  job->id = random_id();
  job->work = std::move(work);
  jobs_[job->id] = job;
  queue_.push_back(job);
  work_arrived_.notify_one();
  return job->id;
}

std::optional<nlohmann::ordered_json> JobQueue::status(const std::string& id, std::chrono::milliseconds wait) {
  std::unique_lock lock(mutex_);
  const auto found = jobs_.find(id);
  if (found == jobs_.end()) return std::nullopt;
  const std::shared_ptr<Job> job = found->second;
  job_ended_.wait_for(lock, wait, [&] { return job->status == "done" || job->status == "failed" || stopping_; });
  nlohmann::ordered_json json{{"job", job->id}, {"status", job->status}};
  if (job->status == "done") json["result"] = job->outcome;
  if (job->status == "failed") json["error"] = job->outcome;
  return json;
}

std::size_t JobQueue::waiting() const {
  const std::lock_guard lock(mutex_);
  return queue_.size();
}

void JobQueue::run_worker() {
  for (;;) {
    std::shared_ptr<Job> job;
    {
      std::unique_lock lock(mutex_);
      work_arrived_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      job = queue_.front();
      queue_.pop_front();
      job->status = "running";
    }
    std::string status = "done";
    nlohmann::ordered_json outcome;
    try {
      outcome = job->work(stopping_);
    } catch (const std::exception& error) {
      status = "failed";
      outcome = error_json(error);
    }
    {
      const std::lock_guard lock(mutex_);
      job->status = status;
      job->outcome = std::move(outcome);
      job->work = nullptr;  // lets go of what the work held (a game, say)
      job->ended = std::chrono::steady_clock::now();
    }
    job_ended_.notify_all();
  }
}

void JobQueue::forget_old_jobs() {
  const auto now = std::chrono::steady_clock::now();
  std::erase_if(jobs_, [&](const auto& entry) {
    const Job& job = *entry.second;
    return (job.status == "done" || job.status == "failed") && now - job.ended > kKeepFinished;
  });
}

}  // namespace troyka::cli
