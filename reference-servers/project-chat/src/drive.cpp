#include "drive.hpp"

#include "commands.hpp"
#include "notes_client.hpp"
#include "output.hpp"
#include "stop_signal.hpp"

#include <fmt/format.h>

#include <future>
#include <sstream>
#include <mutex>
#include <vector>

namespace project_chat {

using mcpref::Json;

namespace {

constexpr long long kDefaultLingerMs = 60000;

long long millis(const Json& action, const char* key, long long fallback) {
  if (!action.contains(key)) return fallback;
  const Json& v = action[key];
  if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() > 3600000)
    throw std::invalid_argument(fmt::format("{} must be an integer from 0 to 3600000", key));
  return v.get<long long>();
}

std::string text(const Json& action, const char* key) {
  if (!action.contains(key) || !action[key].is_string())
    throw std::invalid_argument(fmt::format("needs a string \"{}\"", key));
  return action[key].get<std::string>();
}

class Driver {
 public:
  Driver(NotesClient& client, std::ostream& out, std::ostream& err) : client_(client), out_(out), err_(err) {}

  // Runs one action; false when the session must end ("exit").
  bool run(const Json& action) {
    std::string what = action.is_object() && action.contains("do") && action["do"].is_string()
                           ? action["do"].get<std::string>() : "";
    if (what == "exit") return false;
    if (what == "await_all") {
      await_all();
    } else if (what == "wait_ms") {
      sleep_unless_stopped(std::chrono::milliseconds(millis(action, "ms", 0)));
    } else if (what == "call_tool" && action.contains("await") && action["await"] == false) {
      pending_.push_back(std::async(std::launch::async, [this, action] { guarded(action); }));
    } else if (is_known(what)) {
      guarded(action);
    } else {
      say_err(fmt::format("project_chat: drive: unknown action {} ignored", action.dump()));
    }
    return true;
  }

  // Waits for the calls sent with "await": false. A server that became unavailable meanwhile
  // is rethrown once all are done (unless `rethrow` is false: the caller already knows).
  void await_all(bool rethrow = true) {
    std::exception_ptr unavailable;
    for (auto& f : pending_) {
      try {
        f.get();
      } catch (const mcpref::ServerUnavailable&) {
        if (!unavailable) unavailable = std::current_exception();
      }
    }
    pending_.clear();
    if (unavailable && rethrow) std::rethrow_exception(unavailable);
  }

 private:
  static bool is_known(const std::string& what) {
    for (const char* k : {"ping", "list_tools", "call_tool", "list", "read", "search", "sync"})
      if (what == k) return true;
    return false;
  }

  // One action; its failure is told and the session goes on, unless the server is unavailable
  // (that ends the run: rethrown to the caller, or kept for await_all's caller).
  void guarded(const Json& action) {
    try {
      perform(action);
    } catch (const RequestFailed& e) {
      say_err("project_chat: " + std::string(e.what()));
    } catch (const std::invalid_argument& e) {
      say_err(fmt::format("project_chat: drive: action {}: {}", action.dump(), e.what()));
    }
  }

  void perform(const Json& a) {
    std::string what = a["do"];
    std::ostringstream shown;
    if (what == "ping") {
      client_.ping();
      shown << "ping answered\n";
    } else if (what == "list_tools") {
      print_tool_list(client_.list_tools(), shown);
    } else if (what == "call_tool") {
      std::optional<std::chrono::milliseconds> give_up;
      if (a.contains("cancel_after_ms")) give_up = std::chrono::milliseconds(millis(a, "cancel_after_ms", 0));
      print_tool_text(client_.call_tool(text(a, "name"), a.value("arguments", Json::object()),
                                        a.value("progress", false), give_up),
                      shown);
    } else if (what == "list") {
      print_note_list(client_.list_notes(), shown);
    } else if (what == "read") {
      print_note_text(client_.read_note(text(a, "uri")), shown);
    } else if (what == "search") {
      std::optional<int> limit;
      if (a.contains("limit")) limit = static_cast<int>(millis(a, "limit", 10));
      print_tool_text(client_.search(text(a, "query"), limit), shown);
    } else if (what == "sync") {
      print_tool_text(client_.sync(), shown);
    }
    std::lock_guard lock(mutex_);
    out_ << shown.str() << std::flush;
  }

  void say_err(const std::string& line) {
    std::lock_guard lock(mutex_);
    err_ << line << "\n" << std::flush;
  }

  NotesClient& client_;
  std::ostream& out_;
  std::ostream& err_;
  std::mutex mutex_;
  std::vector<std::future<void>> pending_;
};

}  // namespace

int run_drive(const Json& context, ChatOptions options, std::ostream& out, std::ostream& err) {
  if (!context.is_object()) {
    err << "project_chat: drive: the context must be a JSON object\n";
    return kExitUsage;
  }
  long long linger_ms = 0;
  try {
    if (context.contains("options")) apply_settings(options, context["options"]);
    linger_ms = millis(context, "linger_ms", kDefaultLingerMs);
    if (context.contains("actions") && !context["actions"].is_array())
      throw std::invalid_argument("actions must be an array");
  } catch (const std::invalid_argument& e) {
    err << "project_chat: drive: " << e.what() << "\n";
    return kExitUsage;
  }
  apply_mutation(options);
  NotesClient client(options);
  client.set_event_sink([&err](const std::string& line) { err << "project_chat: " << line << "\n" << std::flush; });
  Driver driver(client, out, err);
  try {
    client.connect();  // in drive mode the session itself is the first use
    bool go_on = true;
    if (context.contains("actions"))
      for (const Json& action : context["actions"]) {
        if (stop_requested() || !(go_on = driver.run(action))) break;
      }
    driver.await_all();
    if (go_on && !stop_requested()) sleep_unless_stopped(std::chrono::milliseconds(linger_ms));
  } catch (const mcpref::ServerUnavailable& e) {
    err << "project_chat: server unavailable: " << e.what() << "\n";
    driver.await_all(false);
    client.shutdown();
    return kExitUnavailable;
  }
  client.shutdown();
  return kExitOk;
}

}  // namespace project_chat
