-- wrk done() hook of the uvhttp benchmark standard: one JSON line with the whole summary and
-- the latency percentiles wrk's own text leaves out (p95, p99.9). Times in microseconds.
--   wrk -t2 -c10 -d10s -s bench/report.lua http://127.0.0.1:8080/
-- A method script (wrk.method/wrk.body/wrk.headers) may be concatenated before this file.

function done(summary, latency, requests)
  local e = summary.errors
  local q = {}
  for _, p in ipairs({50, 75, 90, 95, 99, 99.9, 99.99}) do
    q[#q + 1] = string.format('"%s":%d', tostring(p), latency:percentile(p))
  end
  io.write(string.format(
    '##uvhttp-wrk {"duration_us":%d,"requests":%d,"bytes":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"min":%d,"mean":%.3f,"stdev":%.3f,"max":%d,"percentiles":{%s}},' ..
    '"rps":{"mean":%.3f,"stdev":%.3f}}\n',
    summary.duration, summary.requests, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.min, latency.mean, latency.stdev, latency.max, table.concat(q, ","),
    requests.mean, requests.stdev))
end
