{{/*
The production settings and secrets (values `config` and `secrets`), each pinned to the modules that
read it (services/<module>/src/config.ts), so a module gets only what it uses. A `config` entry is
rendered when set (else the module's own default); a `secret` entry when it has a source (and the
`config` entry named by `with` is set: a client secret means nothing without its client id).
*/}}
{{- define "rde.settings" -}}
RDE_DASHBOARD_URL:         {modules: [gateway, auth], config: dashboardUrl}
RDE_PUBLIC_URL:            {modules: [gateway, auth], config: publicUrl}
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
