#include "tools/serve/api.h"

#include <charconv>
#include <functional>
#include <nlohmann/json.hpp>

#include "sched/core/queue_ledger.h"
#include "tools/serve/console_files.h"
#include "tools/serve/metrics.h"
#include "tools/serve/request_signing.h"

namespace mrlocal {

using nlohmann::json;

namespace {

constexpr const char* kOpenApi =
#include "tools/serve/openapi.inc"
    ;

HttpResponse Json(int status, const json& body) {
  return HttpResponse::Of(status, "application/json", body.dump() + "\n");
}

HttpResponse Error(int status, const std::string& message) {
  return Json(status, json{{"error", message}});
}

int HttpStatusOf(const Status& s) {
  switch (s.code()) {
    case Status::Code::kOk:
      return 200;
    case Status::Code::kInvalidArgument:
      return 400;
    case Status::Code::kPermissionDenied:
      return 403;
    case Status::Code::kNotFound:
      return 404;
    case Status::Code::kResourceExhausted:
    case Status::Code::kAborted:
      return 503;
    default:
      return 500;
  }
}

HttpResponse Error(const Status& s) { return Error(HttpStatusOf(s), s.message()); }

json ToJson(const JobView& v) {
  const StoredJob& r = v.record;
  json j{{"id", r.id},
         {"owner", r.owner},
         {"queue", r.queue},
         {"app", r.app},
         {"phase", JobStageName(r.phase)},
         {"message", r.message},
         {"submitted_ms", r.submitted_ms},
         {"started_ms", r.started_ms},
         {"finished_ms", r.finished_ms},
         {"output", r.output},
         {"maps", r.maps},
         {"maps_done", v.maps_done},
         {"reduces", r.reduces},
         {"reduces_done", v.reduces_done},
         {"map_progress", v.map_progress},
         {"reduce_progress", v.reduce_progress},
         {"elapsed_s", v.elapsed_s},
         {"admission", v.admission},
         {"report", r.ending.report},
         {"exit_code", r.ending.exit_code}};
  const auto optional = [](const std::optional<double>& x) { return x ? json(*x) : json(nullptr); };
  j["deadline_s"] = optional(v.deadline_s);
  j["slack_s"] = optional(v.slack_s);
  j["estimate_s"] = optional(v.estimate_s);
  return j;
}

json ToJson(const QueueView& v) {
  return {{"name", v.record.name},
          {"rate_micro", v.record.rate},
          {"budget_micro", v.record.budget},
          {"deposits_micro", v.record.deposits},
          {"charged_micro", v.record.charged},
          {"share_map", v.share_map},
          {"share_reduce", v.share_reduce},
          {"running", v.running},
          {"pending", v.pending}};
}

json ToJson(const SchedulerView& v) {
  return {{"policy", v.policy},
          {"uptime_s", v.uptime_s},
          {"decisions", v.decisions},
          {"decision_p50_us", v.p50_us},
          {"decision_p99_us", v.p99_us},
          {"slot_decisions", v.slot_decisions},
          {"slot_decision_max_s", v.latency_max_s},
          {"slot_decision_buckets_us", v.latency_buckets}};
}

json ClusterJson(const std::vector<SlotView>& slots) {
  json list = json::array();
  for (const SlotView& s : slots) {
    json slot{
        {"id", s.id}, {"node", s.node}, {"kind", s.map ? "map" : "reduce"}, {"speed", s.speed}};
    if (s.job > 0)
      slot["task"] = {{"job", s.job},
                      {"kind", s.task_is_map ? "map" : "reduce"},
                      {"index", s.task},
                      {"since_s", s.since_s}};
    else
      slot["task"] = nullptr;
    list.push_back(std::move(slot));
  }
  return {{"slots", list}};
}

// A money field of a body: an integer of micro-credits in [lo, kMaxMicroCredits].
Result<MicroCredits> Money(const json& body, const char* field, MicroCredits lo) {
  if (!body.is_object() || !body.contains(field) || !body[field].is_number_integer())
    return Status::InvalidArgument(std::string("'") + field +
                                   "' must be an integer of micro-credits");
  const auto v = body[field].get<int64_t>();
  if (v < lo || v > kMaxMicroCredits)
    return Status::InvalidArgument(std::string("'") + field + "' must be in [" +
                                   std::to_string(lo) + ", " + std::to_string(kMaxMicroCredits) +
                                   "] micro-credits (got " + std::to_string(v) + ")");
  return v;
}

std::optional<int64_t> PositiveInt(std::string_view text) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v <= 0) return std::nullopt;
  return v;
}

// One query parameter's value; empty when absent.
std::string QueryValue(std::string_view query, std::string_view name) {
  while (!query.empty()) {
    const size_t amp = query.find('&');
    const std::string_view p = query.substr(0, amp);
    if (p.size() > name.size() && p.substr(0, name.size()) == name && p[name.size()] == '=')
      return std::string(p.substr(name.size() + 1));
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
  }
  return {};
}

}  // namespace

// A request on its way through the routes: who signed it, and the path's parameters.
struct Api::Call {
  const HttpRequest& request;
  Caller caller;
  std::string param;  // the {id} or {name} of the route
  std::string query;
  json body;  // parsed when the route takes one
};

namespace {

enum class Who : uint8_t { kAnyKey, kOwnerOrAdmin, kAdmin };

struct Route {
  std::string method;
  std::string path;  // with one {param} at most
  Who who;
  bool has_body;
  HttpResponse (*run)(Service&, Api::Call&);
};

// `path` against `pattern`: the {param} part, or none when they differ.
std::optional<std::string> Match(std::string_view pattern, std::string_view path) {
  const size_t open = pattern.find('{');
  if (open == std::string_view::npos)
    return pattern == path ? std::optional<std::string>("") : std::nullopt;
  const size_t close = pattern.find('}', open);
  const std::string_view head = pattern.substr(0, open), tail = pattern.substr(close + 1);
  if (path.size() <= head.size() + tail.size() || path.substr(0, head.size()) != head ||
      path.substr(path.size() - tail.size()) != tail)
    return std::nullopt;
  std::string param(path.substr(head.size(), path.size() - head.size() - tail.size()));
  if (param.find('/') != std::string::npos) return std::nullopt;
  return param;
}

Result<int64_t> JobId(const Api::Call& call) {
  auto id = PositiveInt(call.param);
  if (!id) return Status::NotFound("no job '" + call.param + "'");
  return *id;
}

HttpResponse QueueOwnerOnly(const Api::Call& call, const std::function<HttpResponse()>& run) {
  if (call.caller.role == Role::kOwner && call.caller.queue != call.param)
    return Error(403, "key '" + call.caller.key + "' owns queue '" + call.caller.queue +
                          "', not '" + call.param + "'");
  return run();
}

HttpResponse Statement(Service& s, const Api::Call& call) {
  auto queue = s.store().FindQueue(call.param);
  if (!queue.ok()) return Error(404, "no queue '" + call.param + "'");
  const size_t offset = PositiveInt(QueryValue(call.query, "offset")).value_or(0);
  const size_t limit =
      std::min<int64_t>(PositiveInt(QueryValue(call.query, "limit")).value_or(1000), 10000);
  json charges = json::array(), deposits = json::array(), rates = json::array();
  for (const ChargeRecord& c : s.store().Charges(call.param, offset, limit))
    charges.push_back({{"job", c.job},
                       {"start_ms", c.start_ms},
                       {"end_ms", c.end_ms},
                       {"slot_s", c.slot_s},
                       {"price_micro", c.price},
                       {"amount_micro", c.amount}});
  for (const DepositRecord& d : s.store().Deposits(call.param))
    deposits.push_back({{"amount_micro", d.amount}, {"at_ms", d.at_ms}, {"by", d.by_key}});
  for (const RateChangeRecord& r : s.store().RateChanges(call.param))
    rates.push_back({{"rate_micro", r.rate}, {"at_ms", r.at_ms}, {"by", r.by_key}});
  return Json(200, {{"queue", ToJson(QueueView{*queue, 0, 0, 0, 0})},
                    {"deposits", deposits},
                    {"rates", rates},
                    {"charges", charges}});
}

// The routes' handlers: the path's {param} and the parsed body are in the call, the
// caller's role already checked against the route's.
HttpResponse SubmitJob(Service& s, Api::Call& c) {
  auto v = s.Submit(c.caller, c.request.body);
  return v.ok() ? Json(201, ToJson(*v)) : Error(v.status());
}

HttpResponse ListJobs(Service& s, Api::Call& c) {
  const size_t limit =
      std::min<int64_t>(PositiveInt(QueryValue(c.query, "limit")).value_or(100), 10000);
  json list = json::array();
  for (const JobView& v : s.Jobs(c.caller, limit)) list.push_back(ToJson(v));
  return Json(200, {{"jobs", list}});
}

HttpResponse GetJob(Service& s, Api::Call& c) {
  auto id = JobId(c);
  if (!id.ok()) return Error(id.status());
  auto v = s.Job(c.caller, *id);
  return v.ok() ? Json(200, ToJson(*v)) : Error(v.status());
}

HttpResponse CancelJob(Service& s, Api::Call& c) {
  auto id = JobId(c);
  if (!id.ok()) return Error(id.status());
  auto v = s.Cancel(c.caller, *id);
  if (!v.ok() && v.status().code() == Status::Code::kInvalidArgument)
    return Error(409, v.status().message());  // it has ended
  return v.ok() ? Json(200, ToJson(*v)) : Error(v.status());
}

HttpResponse ListQueues(Service& s, Api::Call&) {
  json list = json::array();
  for (const QueueView& q : s.Queues()) list.push_back(ToJson(q));
  return Json(200, {{"queues", list}});
}

HttpResponse CreateQueue(Service& s, Api::Call& c) {
  const json& b = c.body;
  if (!b.contains("name") || !b["name"].is_string()) return Error(400, "'name' must be a string");
  auto rate = Money(b, "rate_micro", 0);
  if (!rate.ok()) return Error(rate.status());
  const std::string name = b["name"];
  if (s.store().FindQueue(name).ok()) return Error(409, "queue '" + name + "' exists");
  const Status st = s.CreateQueue(c.caller, name, *rate);
  if (!st.ok()) return Error(st);
  return Json(201, ToJson(QueueView{*s.store().FindQueue(name), 0, 0, 0, 0}));
}

HttpResponse GetQueue(Service& s, Api::Call& c) {
  return QueueOwnerOnly(c, [&] { return Statement(s, c); });
}

HttpResponse SetRate(Service& s, Api::Call& c) {
  return QueueOwnerOnly(c, [&] {
    auto rate = Money(c.body, "rate_micro", 0);
    if (!rate.ok()) return Error(rate.status());
    const Status st = s.SetRate(c.caller, c.param, *rate);
    return st.ok() ? Statement(s, c) : Error(st);
  });
}

HttpResponse Deposit(Service& s, Api::Call& c) {
  auto amount = Money(c.body, "amount_micro", 1);
  if (!amount.ok()) return Error(amount.status());
  const Status st = s.Deposit(c.caller, c.param, *amount);
  return st.ok() ? Statement(s, c) : Error(st);
}

HttpResponse ListKeys(Service& s, Api::Call&) {
  json list = json::array();
  for (const KeyRecord& k : s.store().Keys())
    list.push_back({{"key", k.id},
                    {"role", RoleName(k.role)},
                    {"queue", k.queue},
                    {"created_ms", k.created_ms}});
  return Json(200, {{"keys", list}});
}

HttpResponse CreateKey(Service& s, Api::Call& c) {
  const auto text = [&b = c.body](const char* f) {
    return b.contains(f) && b[f].is_string() ? b[f].get<std::string>() : std::string();
  };
  auto role = ParseRole(text("role"));
  if (!role.ok()) return Error(role.status());
  if (s.store().FindKey(text("key")).ok()) return Error(409, "key '" + text("key") + "' exists");
  auto key = s.store().AddKey(text("key"), *role, text("queue"), NowMs());
  if (!key.ok()) return Error(key.status());
  return Json(201, {{"key", key->id},
                    {"secret", key->secret},
                    {"role", RoleName(key->role)},
                    {"queue", key->queue}});
}

HttpResponse RemoveKey(Service& s, Api::Call& c) {
  if (c.param == c.caller.key) return Error(409, "a key cannot remove itself");
  const Status st = s.store().RemoveKey(c.param);
  return st.ok() ? Json(200, {{"removed", c.param}}) : Error(st);
}

HttpResponse Cluster(Service& s, Api::Call&) { return Json(200, ClusterJson(s.Slots())); }

HttpResponse Scheduler(Service& s, Api::Call&) { return Json(200, ToJson(s.Scheduler())); }

// A snapshot of what the console shows, every second, until the client leaves.
HttpResponse Events(Service& s, Api::Call& c) {
  auto snapshot = [&s, caller = c.caller]() -> std::optional<std::string> {
    if (s.stopping()) return std::nullopt;
    json jobs = json::array(), queues = json::array();
    for (const JobView& v : s.Jobs(caller, 50)) jobs.push_back(ToJson(v));
    for (const QueueView& q : s.Queues()) queues.push_back(ToJson(q));
    json event{{"jobs", jobs},
               {"queues", queues},
               {"cluster", ClusterJson(s.Slots())},
               {"scheduler", ToJson(s.Scheduler())}};
    return "data: " + event.dump() + "\n\n";
  };
  HttpResponse r = HttpResponse::Of(200, "text/event-stream", *snapshot());
  r.stream = snapshot;
  r.stream_every = std::chrono::milliseconds(1000);
  return r;
}

const std::vector<Route>& AllRoutes() {
  static const std::vector<Route> routes = {
      {"POST", "/api/v1/jobs", Who::kOwnerOrAdmin, true, SubmitJob},
      {"GET", "/api/v1/jobs", Who::kAnyKey, false, ListJobs},
      {"GET", "/api/v1/jobs/{id}", Who::kAnyKey, false, GetJob},
      {"POST", "/api/v1/jobs/{id}/cancel", Who::kOwnerOrAdmin, false, CancelJob},
      {"GET", "/api/v1/queues", Who::kAnyKey, false, ListQueues},
      {"POST", "/api/v1/queues", Who::kAdmin, true, CreateQueue},
      {"GET", "/api/v1/queues/{name}", Who::kAnyKey, false, GetQueue},
      {"POST", "/api/v1/queues/{name}/rate", Who::kOwnerOrAdmin, true, SetRate},
      {"POST", "/api/v1/queues/{name}/deposit", Who::kAdmin, true, Deposit},
      {"GET", "/api/v1/keys", Who::kAdmin, false, ListKeys},
      {"POST", "/api/v1/keys", Who::kAdmin, true, CreateKey},
      {"DELETE", "/api/v1/keys/{id}", Who::kAdmin, false, RemoveKey},
      {"GET", "/api/v1/cluster", Who::kAnyKey, false, Cluster},
      {"GET", "/api/v1/scheduler", Who::kAnyKey, false, Scheduler},
      {"GET", "/api/v1/events", Who::kAnyKey, false, Events},
  };
  return routes;
}

}  // namespace

std::vector<std::string> Api::Routes() {
  std::vector<std::string> out = {"GET /healthz", "GET /metrics", "GET /api/v1/openapi.json"};
  for (const Route& r : AllRoutes()) out.push_back(r.method + " " + r.path);
  return out;
}

Api::Api(Service& service, int64_t window_s)
    : service_(service), store_(service.store()), guard_(window_s, NowMs() / 1000) {}

namespace {

// Who signed `r`: the key's caller, or the 401 that says why not.
Result<Caller> Authenticate(const HttpRequest& r, ServiceStore& store, ReplayGuard& guard) {
  const std::string key_id = r.Header("x-mrlocal-key"), ts = r.Header("x-mrlocal-timestamp"),
                    nonce = r.Header("x-mrlocal-nonce"), sig = r.Header("x-mrlocal-signature");
  if (key_id.empty() || ts.empty() || nonce.empty() || sig.empty())
    return Status::PermissionDenied(
        "unsigned: the X-Mrlocal-Key, -Timestamp, -Nonce and "
        "-Signature headers are needed");
  auto key = store.FindKey(key_id);
  int64_t timestamp = 0;
  auto [end, ec] = std::from_chars(ts.data(), ts.data() + ts.size(), timestamp);
  const RequestToSign signed_part{r.method, r.target, r.body, key_id, timestamp, nonce};
  // The same answer for an unknown key and a wrong signature: nothing tells which keys exist.
  if (!key.ok() || ec != std::errc() || end != ts.data() + ts.size() ||
      !SignatureMatches(key->secret, signed_part, sig))
    return Status::PermissionDenied("bad signature");
  switch (guard.Admit(timestamp, key_id, nonce, NowMs() / 1000)) {
    case ReplayGuard::Verdict::kFresh:
      break;
    case ReplayGuard::Verdict::kStale:
      return Status::PermissionDenied(
          "stale request: its timestamp is outside the server's "
          "window (check the clock), or before the server started");
    case ReplayGuard::Verdict::kReplayed:
      return Status::PermissionDenied("replayed request: this nonce was used already");
    case ReplayGuard::Verdict::kTooManyRecent:
      return Status::ResourceExhausted("too many requests: try again shortly");
  }
  return Caller{key->id, key->role, key->queue};
}

}  // namespace

HttpResponse Api::Handle(const HttpRequest& r) {
  const size_t q = r.target.find('?');
  const std::string path = r.target.substr(0, q);
  const std::string query = q == std::string::npos ? "" : r.target.substr(q + 1);
  if (path == "/healthz" && r.method == "GET") {
    const Status st = store_.ReadError();
    return st.ok() ? Json(200, {{"status", "ok"}}) : Error(503, st.message());
  }
  if (path == "/metrics" && r.method == "GET")
    return HttpResponse::Of(200, "text/plain; version=0.0.4", MetricsText(service_));
  if (path == "/api/v1/openapi.json" && r.method == "GET")
    return HttpResponse::Of(200, "application/json", kOpenApi);
  if (path.rfind("/api/", 0) != 0) {
    if (r.method != "GET") return Error(405, "method " + r.method + " not allowed");
    if (auto file = ConsoleFile(path))
      return HttpResponse::Of(200, std::string(file->type), std::string(file->body));
    return Error(404, "no such page '" + path + "'");
  }
  const Route* route = nullptr;
  std::string param;
  bool path_known = false;
  for (const Route& candidate : AllRoutes()) {
    auto m = Match(candidate.path, path);
    if (!m) continue;
    path_known = true;
    if (candidate.method == r.method) {
      route = &candidate;
      param = *m;
      break;
    }
  }
  if (!route)
    return path_known ? Error(405, "method " + r.method + " not allowed on " + path)
                      : Error(404, "no route " + path);
  auto caller = Authenticate(r, store_, guard_);
  if (!caller.ok())
    return caller.status().code() == Status::Code::kPermissionDenied
               ? Error(401, caller.status().message())
               : Error(caller.status());
  if ((route->who == Who::kAdmin && caller->role != Role::kAdmin) ||
      (route->who == Who::kOwnerOrAdmin && caller->role == Role::kReader))
    return Error(403, "key '" + caller->key + "' is " + std::string(RoleName(caller->role)) + ": " +
                          route->method + " " + route->path + " needs " +
                          (route->who == Who::kAdmin ? "admin" : "owner or admin"));
  Call call{r, *caller, param, query, json()};
  if (route->has_body) {
    call.body = json::parse(r.body, nullptr, /*allow_exceptions=*/false);
    if (call.body.is_discarded() || !call.body.is_object())
      return Error(400, "malformed JSON: the body must be a JSON object");
  }
  return route->run(service_, call);
}

}  // namespace mrlocal
