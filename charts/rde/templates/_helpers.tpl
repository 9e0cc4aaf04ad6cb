{{/* The release's name prefix; a release called after the chart is not repeated. */}}
{{- define "rde.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* A module's resource name: <fullname>-<module>. Call with (list $ "billing"). */}}
{{- define "rde.name" -}}
{{- printf "%s-%s" (include "rde.fullname" (index . 0)) (index . 1) -}}
{{- end -}}

{{/*
The architecture's topology, pinned here (docs/ARCHITECTURE: "a service accepts only the callers
the architecture gives it"): each module's serving port and the modules it calls. The ports are
the modules' own defaults (`defaultPort` in services/<name>/src/index.ts).
*/}}
{{- define "rde.topology" -}}
gateway:   {port: 8080, protocol: http, calls: [auth, billing, catalog, waterfall, dataset, workflow, mcp]}
auth:      {port: 7101, protocol: grpc, calls: []}
billing:   {port: 7102, protocol: grpc, calls: []}
catalog:   {port: 7103, protocol: grpc, calls: [billing, dataset], vendors: true}
waterfall: {port: 7104, protocol: grpc, calls: [billing, catalog, dataset], vendors: true}
dataset:   {port: 7105, protocol: grpc, calls: []}
workflow:  {port: 7106, protocol: grpc, calls: [billing, catalog, waterfall, dataset]}
mcp:       {port: 7107, protocol: grpc, calls: [auth, billing, catalog, waterfall, dataset, workflow]}
{{- end -}}

{{/* Labels every object carries. Call with (list $ module). */}}
{{- define "rde.labels" -}}
{{- $ := index . 0 -}}
{{ include "rde.selectorLabels" . }}
app.kubernetes.io/version: {{ $.Values.image.tag | default $.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ $.Release.Service }}
app.kubernetes.io/part-of: rde
helm.sh/chart: {{ printf "%s-%s" $.Chart.Name $.Chart.Version }}
{{- end -}}

{{/* What Services, PDBs and NetworkPolicies select a module's pods by. */}}
{{- define "rde.selectorLabels" -}}
{{- $ := index . 0 -}}
app.kubernetes.io/name: rde
app.kubernetes.io/instance: {{ $.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{/* The image, with a module's own tag when it has one. Call with (list $ tag). */}}
{{- define "rde.image" -}}
{{- $ := index . 0 -}}
{{- printf "%s:%s" $.Values.image.repository (index . 1 | default $.Values.image.tag | default $.Chart.AppVersion) -}}
{{- end -}}

{{/*
Where a module is reached: the addresses override, else this release's headless Service through
gRPC's DNS resolver (every pod's address, so clients balance over replicas).
*/}}
{{- define "rde.address" -}}
{{- $ := index . 0 -}}
{{- $module := index . 1 -}}
{{- $topology := include "rde.topology" $ | fromYaml -}}
{{- $port := (get $topology $module).port -}}
{{- $override := get $.Values.addresses $module -}}
{{- if $override -}}
{{- $override -}}
{{- else -}}
{{- printf "dns:///%s.%s.svc.cluster.local:%v" (include "rde.name" (list $ $module)) $.Release.Namespace $port -}}
{{- end -}}
{{- end -}}

{{/* The environment every RDE process gets: backends, namespace, logging, tracing, metrics. */}}
{{- define "rde.commonEnv" -}}
- name: RDE_MONGO_URL
  valueFrom:
    secretKeyRef:
      name: {{ .Values.backends.mongo.existingSecret }}
      key: {{ .Values.backends.mongo.urlKey }}
- name: RDE_KAFKA_BROKERS
  value: {{ .Values.backends.kafka.brokers | quote }}
- name: RDE_REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ .Values.backends.redis.existingSecret }}
      key: {{ .Values.backends.redis.urlKey }}
- name: RDE_NAMESPACE
  value: {{ .Values.dataNamespace | quote }}
- name: RDE_LOG_LEVEL
  value: {{ .Values.logLevel | quote }}
- name: RDE_METRICS_PORT
  value: {{ .Values.metrics.port | quote }}
- name: RDE_METRICS_HOST
  value: "0.0.0.0"
{{- with .Values.tracing.otlpEndpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ . | quote }}
- name: OTEL_TRACES_SAMPLER
  value: parentbased_traceidratio
- name: OTEL_TRACES_SAMPLER_ARG
  value: {{ $.Values.tracing.samplingRatio | quote }}
{{- end }}
{{- end -}}
