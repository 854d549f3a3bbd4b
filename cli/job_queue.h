// Long work of the web playground (agent searches, analyses) runs here, off the threads that answer
// HTTP requests: a fixed number of worker threads take jobs from a bounded queue, so however many
// people click "think", the machine runs at most `workers` searches at once and a request thread
// is never held by one. A page polls a job by its id until it is done.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace troyka::cli {

class JobQueue {
 public:
  // The work of a job: returns its result, or throws (the job then fails with the exception's
  // message, or a lang::Error's diagnostic). `cancelled` turns true when the server stops.
  using Work = std::function<nlohmann::ordered_json(const std::atomic<bool>& cancelled)>;

  JobQueue(int workers, std::size_t max_waiting);
  // Cancels the jobs still waiting or running and joins the workers.
  ~JobQueue();
  JobQueue(const JobQueue&) = delete;
  JobQueue& operator=(const JobQueue&) = delete;

  // Queues `work` and returns the job's id, or nothing when `max_waiting` jobs already wait.
  std::optional<std::string> submit(Work work);

  // {"job": ID, "status": "queued" | "running" | "done" | "failed", "result": ... or "error": ...},
  // after waiting up to `wait` for the job to end; nothing for an unknown (or long forgotten) id.
  std::optional<nlohmann::ordered_json> status(const std::string& id, std::chrono::milliseconds wait);

  // Jobs queued and not yet started.
  std::size_t waiting() const;

 private:
  struct Job {
    std::string id;
    Work work;
    std::string status = "queued";
    nlohmann::ordered_json outcome;  // the result, or the error
    std::chrono::steady_clock::time_point ended;
  };

  void run_worker();
  void forget_old_jobs();  // with mutex_ held

  mutable std::mutex mutex_;
  std::condition_variable work_arrived_, job_ended_;
  std::deque<std::shared_ptr<Job>> queue_;
  std::map<std::string, std::shared_ptr<Job>> jobs_;  // every job not yet forgotten, by id
  std::size_t max_waiting_;
  std::atomic<bool> stopping_{false};
  std::vector<std::thread> workers_;
};

// 128 random bits as 32 hex digits: ids nobody can guess, so one person cannot reach another's game.
std::string random_id();

}  // namespace troyka::cli
