{{/*
The production settings and secrets (values `config` and `secrets`), each pinned to the modules that
read it (services/<module>/src/config.ts), so a module gets only what it uses. A `config` entry is
rendered when set (else the module's own default); a `secret` entry when it has a source (and the
`config` entry named by `with` is set: a client secret means nothing without its client id).
*/}}
{{- define "rde.settings" -}}
RDE_DASHBOARD_URL:         {modules: [gateway, auth, billing], config: dashboardUrl}
RDE_PUBLIC_URL:            {modules: [gateway, auth, billing], config: publicUrl}
RDE_TRUSTED_PROXIES:       {modules: [gateway], config: trustedProxies}
RDE_MCP_ALLOWED_ORIGINS:   {modules: [gateway], config: mcpAllowedOrigins}
RDE_MAIL_FROM:             {modules: [auth], config: mailFrom}
RDE_SMTP_URL:              {modules: [auth], secret: smtpUrl}
RDE_AUTH_SECRET:           {modules: [auth], secret: authSecret}
RDE_SECRETS_KEYRING:       {modules: [auth], secret: secretsKeyring}
RDE_GOOGLE_CLIENT_ID:      {modules: [auth], config: googleClientId}
RDE_GOOGLE_CLIENT_SECRET:  {modules: [auth], secret: googleClientSecret, with: googleClientId}
RDE_GOOGLE_ISSUER:         {modules: [auth], config: googleIssuer}
RDE_GOOGLE_REDIRECT_URL:   {modules: [auth], config: googleRedirectUrl}
RDE_STRIPE_SECRET_KEY:     {modules: [billing], secret: stripeSecretKey}
RDE_STRIPE_WEBHOOK_SECRET: {modules: [billing], secret: stripeWebhookSecret}
RDE_BILLING_RETURN_URL:    {modules: [billing], config: billingReturnUrl}
RDE_CLI_RELEASE_STORE_URL: {modules: [catalog], config: cliReleaseStoreUrl}
RDE_CLI_RELEASES_FILE:     {modules: [catalog], config: cliReleasesFile}
RDE_CLI_MIN_VERSION:       {modules: [catalog], config: cliMinVersion}
RDE_NPM_UPSTREAM_URL:      {modules: [catalog], config: npmUpstreamUrl}
RDE_NPM_PACKAGES:          {modules: [catalog], config: npmPackages}
RDE_DISTRIBUTION_UPSTREAM_TIMEOUT_MS: {modules: [catalog], config: distributionUpstreamTimeoutMs}
{{- end -}}

{{/*
Every other variable a module reads (services/<module>/src/config.ts), which an install may set in
modules.<name>.env: tuning whose defaults suit production, the vendors' URLs and keys (keys from a
Secret through extraEnvFrom), development and fault hooks. The chart itself sets the ports, the
bind addresses, the drain and the other modules' addresses. An RDE_ name in modules.<name>.env that
is neither here nor above is refused, so a misspelt name cannot be ignored silently.
services/rde/test/chart-settings.test.ts holds both tables against what each module declares.
*/}}
{{- define "rde.envSettings" -}}
gateway: [RDE_RPC_DEADLINE_MS, RDE_READY_PROBE_MS, RDE_BEARER_CACHE_MS, RDE_OPENAI_APPS_CHALLENGE,
  RDE_IDEMPOTENCY_TTL_MS, RDE_IDEMPOTENCY_LEASE_MS, RDE_IDEMPOTENCY_MAX_BODY_BYTES]
auth: [RDE_RPC_DEADLINE_MS, RDE_DEV_API_KEY, RDE_DEV_GRANT_CREDITS, RDE_SUPPORT_INBOX,
  RDE_ISSUE_WEBHOOK_URL, RDE_MAGIC_LINK_TTL_MS, RDE_CLI_CLAIM_TTL_MS, RDE_INTEGRATIONS, RDE_CLI_START_PER_IP_PER_MINUTE]
billing: [RDE_BILLING_REAPER_INTERVAL_MS, RDE_BILLING_HOLD_TTL_MS, RDE_FAULT_PAUSE_AFTER_APPLY_MS, RDE_STRIPE_API_BASE,
  RDE_BILLING_PERIOD_JOBS_INTERVAL_MS]
catalog: [RDE_PROVIDER_TIMEOUT_MS, RDE_PROVIDER_CONNECTIONS, RDE_CATALOG_HOLD_TTL_MS, RDE_CATALOG_OUTBOX_POLL_MS,
  RDE_CATALOG_INVOCATION_REPLAY_MS, RDE_RPC_DEADLINE_MS, RDE_CATALOG_CENTS_PER_CREDIT, RDE_CATALOG_SKILLS_DIR,
  RDE_PPLGRAPH_API_KEY, RDE_PPLGRAPH_BASE_URL, RDE_PROSPECTDB_API_KEY, RDE_PROSPECTDB_BASE_URL, RDE_WEBSCOUT_API_KEY,
  RDE_WEBSCOUT_BASE_URL, RDE_LINKSCAN_API_KEY, RDE_LINKSCAN_BASE_URL, RDE_MAILFINDER_API_KEY, RDE_MAILFINDER_BASE_URL,
  RDE_REACHOUT_API_KEY, RDE_REACHOUT_BASE_URL, RDE_BULKMAIL_API_KEY, RDE_BULKMAIL_BASE_URL, RDE_PERSONA_API_KEY,
  RDE_PERSONA_BASE_URL, RDE_HOMEBASE_API_KEY, RDE_HOMEBASE_BASE_URL, RDE_VERIMAIL_API_KEY, RDE_VERIMAIL_BASE_URL,
  RDE_DIALBOOK_API_KEY, RDE_DIALBOOK_BASE_URL, RDE_RINGDIRECT_API_KEY, RDE_RINGDIRECT_BASE_URL, RDE_PROFILELY_API_KEY,
  RDE_PROFILELY_BASE_URL, RDE_LITEPRO_API_KEY, RDE_LITEPRO_BASE_URL]
waterfall: [RDE_RPC_DEADLINE_MS, RDE_WATERFALL_STEP_DEADLINE_MS, RDE_WATERFALL_HOLD_TTL_MS, RDE_WATERFALL_OUTBOX_POLL_MS,
  RDE_ENRICH_DETACH_MS, RDE_ENRICH_REPLAY_WINDOW_MS, RDE_ENRICH_POLL_BUDGET_MS, RDE_ENRICH_POLL_INTERVAL_MS,
  RDE_ENRICH_JOB_LEASE_MS, RDE_ENRICH_JOB_LIFETIME_MS, RDE_ENRICH_VENDOR_CONCURRENCY, RDE_ENRICH_RUN_CHUNK_ROWS,
  RDE_ENRICH_RUN_SLOTS, RDE_ENRICH_RUN_DETACH_MS, RDE_ENRICH_RUN_BLOCK_MS, RDE_ENRICH_RUN_CHUNK_LEASE_MS,
  RDE_ENRICH_RUN_SWEEP_MS, RDE_ENRICH_RUN_WORKSPACE_LIMIT, RDE_VENDOR_PACING]
dataset: [RDE_DATASET_WRITE_BATCH, RDE_DATASET_QUOTA_DATASETS, RDE_DATASET_QUOTA_ROWS, RDE_DATASET_QUOTA_BYTES]
workflow: [RDE_RPC_DEADLINE_MS, RDE_WORKFLOW_STEP_DEADLINE_MS, RDE_WORKFLOW_RUN_SLOTS, RDE_WORKFLOW_RUN_LEASE_MS,
  RDE_WORKFLOW_RUN_SWEEP_MS, RDE_WORKFLOW_QUEUED_GRACE_MS, RDE_WEBHOOK_RATE_PER_MINUTE]
mcp: [RDE_RPC_DEADLINE_MS, RDE_MCP_OAUTH_REGISTER_PER_MINUTE, RDE_MCP_OAUTH_TOKEN_PER_MINUTE,
  RDE_MCP_OAUTH_MEMBERSHIP_CACHE_MS, RDE_MCP_OAUTH_REFRESH_GRACE_MS, RDE_MCP_CIMD_TIMEOUT_MS, RDE_MCP_CIMD_MAX_BYTES,
  RDE_MCP_CIMD_ALLOW_LOOPBACK_HTTP]
{{- end -}}

{{/*
Where a secret is read from, as YAML {name, key, shared} (empty: nowhere): its inline value (in the
chart's Secret), else its own existing Secret, else the shared secrets.existingSecret. Call with
(list $ "authSecret").
*/}}
{{- define "rde.secretSource" -}}
{{- $ := index . 0 -}}
{{- $name := index . 1 -}}
{{- $secret := get $.Values.secrets $name -}}
{{- if and $secret.value $secret.existingSecret -}}
{{- fail (printf "secrets.%s: give either a value or an existingSecret, not both" $name) -}}
{{- else if $secret.value -}}
{name: {{ include "rde.name" (list $ "inline-secrets") }}, key: {{ $secret.key }}, shared: false}
{{- else if $secret.existingSecret -}}
{name: {{ $secret.existingSecret }}, key: {{ $secret.key }}, shared: false}
{{- else if $.Values.secrets.existingSecret -}}
{name: {{ $.Values.secrets.existingSecret }}, key: {{ $secret.key }}, shared: true}
{{- end -}}
{{- end -}}

{{/*
Why a secret is required, or empty when it is not (docs/decisions/0054): auth's secret and keyring
must be the same on every replica and survive restarts, and sign-in needs real mail; a Google
client id or a Stripe key is half an integration without its secret. Call with (list $ "authSecret").
*/}}
{{- define "rde.secretRequired" -}}
{{- $ := index . 0 -}}
{{- $name := index . 1 -}}
{{- $production := not $.Values.development -}}
{{- $auth := $.Values.modules.auth -}}
{{- $replicated := or $auth.autoscaling.enabled (gt (int $auth.replicas) 1) -}}
{{- $stripeKey := or $.Values.secrets.stripeSecretKey.value $.Values.secrets.stripeSecretKey.existingSecret -}}
{{- if and $production (has $name (list "authSecret" "secretsKeyring")) -}}
every auth replica needs the same one, kept across restarts
{{- else if and $replicated (has $name (list "authSecret" "secretsKeyring")) -}}
auth runs more than one replica, and each would draw its own (a development install runs one)
{{- else if and $production (eq $name "smtpUrl") (not $.Values.config.mailLogOnly) -}}
sign-in emails need an SMTP server (config.mailLogOnly: true only logs them)
{{- else if and (eq $name "googleClientSecret") $.Values.config.googleClientId -}}
config.googleClientId is set
{{- else if and (eq $name "stripeWebhookSecret") $stripeKey -}}
secrets.stripeSecretKey is set, and subscriptions follow Stripe's webhooks
{{- end -}}
{{- end -}}

{{/*
A module's share of the settings and secrets as env entries; a required secret without a source
fails the render with what to set. Call with (list $ "auth").
*/}}
{{- define "rde.settingsEnv" -}}
{{- $ := index . 0 -}}
{{- $module := index . 1 -}}
{{- $env := (get $.Values.modules $module).env }}
{{- range $variable, $setting := include "rde.settings" $ | fromYaml }}
{{- if has $module $setting.modules }}
{{- if hasKey $env $variable }}
{{- /* One place per setting; and a secret in env would be a plain value in the Deployment. */}}
{{- fail (printf "modules.%s.env.%s: set %s.%s instead" $module $variable (ternary "config" "secrets" (empty $setting.secret)) (coalesce $setting.config $setting.secret)) }}
{{- end }}
{{- if $setting.config }}
{{- with get $.Values.config $setting.config }}
- name: {{ $variable }}
  value: {{ . | quote }}
{{- end }}
{{- else if or (not $setting.with) (get $.Values.config (default "" $setting.with)) }}
{{- $source := include "rde.secretSource" (list $ $setting.secret) | fromYaml }}
{{- $required := include "rde.secretRequired" (list $ $setting.secret) }}
{{- if $source }}
- name: {{ $variable }}
  valueFrom:
    secretKeyRef:
      name: {{ $source.name }}
      key: {{ $source.key }}
      {{- if and $source.shared (not $required) }}
      # Optional: the shared Secret may leave this integration out.
      optional: true
      {{- end }}
{{- else if $required }}
{{- $hint := ternary "" "; a development install sets development: true" $.Values.development }}
{{- fail (printf "secrets.%s (%s, read by %s) is required: %s. Set secrets.%s.value, secrets.%s.existingSecret or secrets.existingSecret%s" $setting.secret $variable $module $required $setting.secret $setting.secret $hint) }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}
{{- $takes := get (include "rde.envSettings" $ | fromYaml) $module }}
{{- range $variable, $_ := $env }}
{{- if and (hasPrefix "RDE_" $variable) (not (has $variable $takes)) }}
{{- fail (printf "modules.%s.env.%s: %s reads no such variable through env (the chart sets ports, addresses and the drain itself; the names it takes: rde.envSettings in templates/_settings.tpl)" $module $variable $module) }}
{{- end }}
{{- end }}
{{- end -}}

{{/*
A digest of the inline secrets a module reads (empty: none), as a pod annotation: environment
variables are read at start, so a changed value must roll the pods that read it. Call with (list $ "auth").
*/}}
{{- define "rde.secretsChecksum" -}}
{{- $ := index . 0 -}}
{{- $module := index . 1 -}}
{{- $values := list -}}
{{- range $variable, $setting := include "rde.settings" $ | fromYaml -}}
{{- if and $setting.secret (has $module $setting.modules) -}}
{{- with (get $.Values.secrets $setting.secret).value -}}
{{- $values = append $values (printf "%s=%s" $variable .) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- with $values -}}
{{- join "\n" . | sha256sum -}}
{{- end -}}
{{- end -}}
