import { useState } from 'react';
import { api, ok, ProblemError } from '../api';
import { SelectField, TextAreaField, TextField } from '../components/Field';
import { fieldError, ProblemAlert } from '../components/ProblemAlert';
import { useSubmit } from '../components/useSubmit';
import type { CodeHostConnection, SourceProvider } from '../types';

const PROVIDERS: { value: SourceProvider; label: string }[] = [
  { value: 'github', label: 'GitHub (a GitHub App installation)' },
  { value: 'gitlab', label: 'GitLab (a project or group access token)' },
];

const NAMESPACE_HINT: Record<SourceProvider, string> = {
  github: 'The account the App is installed on: acme serves every acme/… repository.',
  gitlab: 'A group or project path: platform/web serves platform/web and everything under it.',
};

type Problems = Partial<Record<'name' | 'namespace' | 'app_id' | 'installation_id' | 'private_key' | 'token', string>>;

const wholeNumber = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : null);

/** Connects a code host; the private key or token is sent once and never shown again. */
export function ConnectCodeHostForm({ onConnected }: { onConnected: (connection: CodeHostConnection) => void }) {
  const [provider, setProvider] = useState<SourceProvider>('github');
  const [name, setName] = useState('');
  const [namespace, setNamespace] = useState('');
  const [appId, setAppId] = useState('');
  const [installationId, setInstallationId] = useState('');
  const [privateKey, setPrivateKey] = useState('');
  const [token, setToken] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [local, setLocal] = useState<Problems>({});

  const { busy, error, onSubmit } = useSubmit({
    check: () => {
      const problems: Problems = {};
      if (!name.trim()) problems.name = 'Give the connection a name, such as the organisation it reaches.';
      if (!namespace.trim()) problems.namespace = 'Enter the account, group or project path it serves.';
      if (provider === 'github') {
        if (wholeNumber(appId) === null) problems.app_id = "Enter the App's id, a number from its settings page.";
        if (wholeNumber(installationId) === null) {
          problems.installation_id = 'Enter the installation id, the number at the end of its settings URL.';
        }
        if (!privateKey.trim()) problems.private_key = "Paste the App's private key (the .pem file GitHub gave you).";
      } else if (!token.trim()) {
        problems.token = 'Paste an access token with the api scope.';
      }
      setLocal(problems);
      return Object.keys(problems).length === 0;
    },
    send: async () => {
      const common = { name: name.trim(), namespace: namespace.trim() };
      const body =
        provider === 'github'
          ? {
              ...common,
              provider,
              app_id: wholeNumber(appId)!,
              installation_id: wholeNumber(installationId)!,
              private_key: privateKey,
            }
          : { ...common, provider, token: token.trim(), ...(baseUrl.trim() ? { base_url: baseUrl.trim() } : {}) };
      const created = await ok(api.POST('/code-host-connections', { body }));
      // The credential leaves the page with the request: nothing keeps it.
      setPrivateKey('');
      setToken('');
      setName('');
      setNamespace('');
      onConnected(created);
    },
  });
  const invalid =
    error instanceof ProblemError && Array.isArray(error.problem.errors) && error.problem.errors.length > 0;
  const problem = (field: keyof Problems) => local[field] ?? fieldError(error, field);

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-labelledby="connect-code-host-heading">
      <h3 id="connect-code-host-heading">Connect a code host</h3>
      <ProblemAlert
        error={error}
        title={invalid ? 'Not connected: correct the fields marked below' : 'The code host was not connected'}
      />
      <SelectField
        id="code-host-provider"
        label="Code host"
        value={provider}
        onChange={(next) => {
          setProvider(next);
          setLocal({});
        }}
        options={PROVIDERS}
      />
      <TextField
        id="code-host-name"
        label="Connection name"
        required
        maxLength={100}
        placeholder="e.g. Acme on GitHub"
        value={name}
        onChange={setName}
        error={problem('name')}
      />
      <TextField
        id="code-host-namespace"
        label="Serves"
        required
        maxLength={255}
        spellCheck={false}
        hint={NAMESPACE_HINT[provider]}
        value={namespace}
        onChange={setNamespace}
        error={problem('namespace')}
      />
      {provider === 'github' ? (
        <>
          <TextField
            id="code-host-app-id"
            label="App id"
            required
            inputMode="numeric"
            value={appId}
            onChange={setAppId}
            error={problem('app_id')}
          />
          <TextField
            id="code-host-installation-id"
            label="Installation id"
            required
            inputMode="numeric"
            value={installationId}
            onChange={setInstallationId}
            error={problem('installation_id')}
          />
          <TextAreaField
            id="code-host-private-key"
            label="Private key"
            required
            rows={4}
            spellCheck={false}
            autoComplete="off"
            hint="The App needs Commit statuses and Pull requests (write). The key is stored encrypted and never shown again."
            placeholder="-----BEGIN RSA PRIVATE KEY-----"
            value={privateKey}
            onChange={setPrivateKey}
            error={problem('private_key')}
          />
        </>
      ) : (
        <>
          <TextField
            id="code-host-token"
            type="password"
            label="Access token"
            required
            autoComplete="off"
            hint="A project or group access token with the api scope (Developer or above). Stored encrypted, never shown again."
            value={token}
            onChange={setToken}
            error={problem('token')}
          />
          <TextField
            id="code-host-base-url"
            type="url"
            label="GitLab address"
            optional
            inputMode="url"
            spellCheck={false}
            placeholder="https://gitlab.com"
            hint="Only for self-managed GitLab; it must be a public address."
            value={baseUrl}
            onChange={setBaseUrl}
            error={fieldError(error, 'base_url')}
          />
        </>
      )}
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Connecting…' : 'Connect'}
      </button>
    </form>
  );
}
