#!/usr/bin/env python3
"""A real OTLP/HTTP trace receiver for den's tracing tests.

It accepts POST /v1/traces with an `ExportTraceServiceRequest` in protobuf (what swift-otel's
exporter sends), decodes it with OpenTelemetry's official generated classes
(`opentelemetry-proto` on PyPI), and appends one JSON line per span to the output file:
name, kind, trace and span ids (hex), parent span id, status, attributes and the resource's
attributes. A body that does not decode is answered 400 and counted in the file as an
`{"error": ...}` line, so a test sees it. It prints its port once it listens, and exits when its
standard input closes (the test that started it went away).

Usage: receiver.py <output.jsonl> [port]   (port 0, the default, picks a free one)
"""
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)

OUTPUT = sys.argv[1]


def value_of(any_value):
    kind = any_value.WhichOneof("value")
    return getattr(any_value, kind) if kind else None


def attributes(pairs):
    return {pair.key: value_of(pair.value) for pair in pairs}


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        request = ExportTraceServiceRequest()
        try:
            if self.path != "/v1/traces":
                raise DecodeError(f"posted to {self.path}, not /v1/traces")
            if self.headers.get("Content-Type") != "application/x-protobuf":
                raise DecodeError(f"content type {self.headers.get('Content-Type')}")
            request.ParseFromString(body)
        except DecodeError as error:
            self.write({"error": str(error)})
            self.send_response(400)
            self.end_headers()
            return
        lines = []
        for resource_spans in request.resource_spans:
            resource = attributes(resource_spans.resource.attributes)
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    lines.append({
                        "name": span.name,
                        "kind": span.kind,
                        "trace_id": span.trace_id.hex(),
                        "span_id": span.span_id.hex(),
                        "parent_span_id": span.parent_span_id.hex(),
                        "status": span.status.code,
                        "status_message": span.status.message,
                        "start": span.start_time_unix_nano,
                        "end": span.end_time_unix_nano,
                        "attributes": attributes(span.attributes),
                        "resource": resource,
                    })
        for line in lines:
            self.write(line)
        answer = ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def write(self, line):
        with open(OUTPUT, "a") as output:
            output.write(json.dumps(line) + "\n")

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2]) if len(sys.argv) > 2 else 0), Handler)
print(server.server_address[1], flush=True)


def stop_when_stdin_closes():
    sys.stdin.read()
    server.shutdown()


threading.Thread(target=stop_when_stdin_closes, daemon=True).start()
server.serve_forever()
