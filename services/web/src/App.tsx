import { Route, Router, Switch } from 'wouter';
import { SignIn } from './pages/SignIn';
import { Verify } from './pages/Verify';
import { SetPassword } from './pages/SetPassword';
import { Home } from './pages/Home';
import { OutcomeView } from './components/OutcomeView';
import { Keys } from './pages/Keys';
import { McpConsent } from './pages/McpConsent';
import { Billing } from './pages/billing/Billing';
import { Members } from './pages/members/Members';
import { Datasets } from './pages/datasets/Datasets';
import { Dataset } from './pages/datasets/Dataset';
import { Workflows } from './pages/workflows/Workflows';
import { Workflow } from './pages/workflows/Workflow';
import { Skills } from './pages/skills/Skills';
import { Skill } from './pages/skills/Skill';
import { Integrations } from './pages/integrations/Integrations';
import { Feedback } from './pages/feedback/Feedback';

/** Every page, under the gateway's dashboard path (decision 0068). */
export function App() {
  return (
    <Router base="/app">
      <Switch>
        <Route path="/auth/signin" component={SignIn} />
        <Route path="/auth/verify" component={Verify} />
        <Route path="/auth/set-password" component={SetPassword} />
        <Route path="/auth/cli/finalize">
          {/* Where the external identity provider's sign-in lands once it approved a waiting CLI. */}
          <main>
            <h1>Sign in to RDE</h1>
            <OutcomeView outcome={{ done: 'cli' }} />
          </main>
        </Route>
        <Route path="/oauth/consent" component={McpConsent} />
        <Route path="/" component={Home} />
        <Route path="/keys" component={Keys} />
        <Route path="/members" component={Members} />
        <Route path="/billing" component={Billing} />
        <Route path="/datasets" component={Datasets} />
        <Route path="/datasets/:id" component={Dataset} />
        <Route path="/workflows" component={Workflows} />
        <Route path="/workflows/:id" component={Workflow} />
        <Route path="/skills" component={Skills} />
        <Route path="/skills/:id" component={Skill} />
        <Route path="/integrations" component={Integrations} />
        <Route path="/feedback" component={Feedback} />
        <Route>
          <main>
            <h1>Page not found</h1>
            <p>
              <a href="/app/">Go to the dashboard</a>
            </p>
          </main>
        </Route>
      </Switch>
    </Router>
  );
}
