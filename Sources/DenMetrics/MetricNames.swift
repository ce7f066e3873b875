import Prometheus

/// Every metric den exports, named once: the registry makes them from here, docs/OBSERVABILITY.md
/// lists them, and the Grafana dashboard's test holds its queries against this list.
package enum MetricNames {
    // Per module: what its calls cost.
    static var calls: MetricNameDescriptor { MetricNameDescriptor(namespace: "den", subsystem: "module", metricName: "calls", unitName: "total",
                                            helpText: "Module calls (builders, handle, exports) that ended, by module, version, hosting, kind and route pattern.") }
    static var callErrors: MetricNameDescriptor { MetricNameDescriptor(namespace: "den", subsystem: "module", metricName: "call_errors", unitName: "total",
                                                 helpText: "Module calls that ended in an error, by the error's kind (a den_status, or gave_up past the call limit).") }
    static var callDuration: MetricNameDescriptor { MetricNameDescriptor(namespace: "den", subsystem: "module", metricName: "call_duration", unitName: "seconds",
                                                   helpText: "How long module calls took.") }
    static var restarts: MetricNameDescriptor { MetricNameDescriptor(namespace: "den", subsystem: "module", metricName: "restarts", unitName: "total",
                                               helpText: "Times an isolated module's worker was started again after it ended.") }
    static var quarantined: MetricNameDescriptor { MetricNameDescriptor(namespace: "den", subsystem: "module", metricName: "quarantined", unitName: "",
                                                  helpText: "1 while an isolated module is quarantined after a crash loop.") }
    static var workerMemory: MetricNameDescriptor { MetricNameDescriptor(namespace: "den", subsystem: "module", metricName: "worker_resident_memory", unitName: "bytes",
                                                   helpText: "Resident memory of an isolated module's worker process.") }
    static var serviceCalls: MetricNameDescriptor { MetricNameDescriptor(namespace: "den", subsystem: "module", metricName: "service_calls", unitName: "total",
                                                   helpText: "Host service calls a module made (storage.get, http.get, ...), by outcome.") }
    static var storageBytes: MetricNameDescriptor { MetricNameDescriptor(namespace: "den", subsystem: "module", metricName: "storage", unitName: "bytes_total",
                                                   helpText: "Bytes a module's storage calls sent (out) and received (in).") }
    static var timeShare: MetricNameDescriptor { MetricNameDescriptor(namespace: "den", subsystem: "module", metricName: "time_share", unitName: "ratio",
                                                helpText: "The module that took most of den's module time over the last full minute, and its share.") }
    // Per host.
    static var requests: MetricNameDescriptor { MetricNameDescriptor(namespace: "den", metricName: "requests", unitName: "total",
                                               helpText: "Requests the browser front-end answered, by status.") }
    static var liveSessions: MetricNameDescriptor { MetricNameDescriptor(namespace: "den", metricName: "live_sessions", unitName: "",
                                                   helpText: "Browser sessions this host holds in memory.") }
    static var sessionSaves: MetricNameDescriptor { MetricNameDescriptor(namespace: "den", metricName: "session_saves", unitName: "total",
                                                   helpText: "Browser sessions saved to storage.") }
    static var audit: MetricNameDescriptor { MetricNameDescriptor(namespace: "den", metricName: "audit_events", unitName: "total",
                                            helpText: "Audit lines by event (login.ok, login.failed, login.throttled, ...).") }
    static var refused: MetricNameDescriptor { MetricNameDescriptor(namespace: "den", metricName: "connections_refused", unitName: "total",
                                              helpText: "Connections answered 503 at the connection cap.") }
    static var memory: MetricNameDescriptor { MetricNameDescriptor(namespace: "den", metricName: "resident_memory", unitName: "bytes",
                                             helpText: "Resident memory of this den process.") }

    /// Every name a scrape can show (a histogram adds _bucket, _sum and _count).
    package static let all: [String] = [calls, callErrors, callDuration, restarts, quarantined, workerMemory, serviceCalls,
                                        storageBytes, timeShare, requests, liveSessions, sessionSaves, audit, refused, memory].map(\.name)
}
