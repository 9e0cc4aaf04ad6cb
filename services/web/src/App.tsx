import { Route, Router, Switch } from 'wouter';
import { SignIn } from './pages/SignIn';
import { Verify } from './pages/Verify';
import { SetPassword } from './pages/SetPassword';
import { Home } from './pages/Home';
import { Keys } from './pages/Keys';

/** Every page, under the gateway's dashboard path (decision 0068). */
export function App() {
  return (
    <Router base="/app">
      <Switch>
        <Route path="/auth/signin" component={SignIn} />
        <Route path="/auth/verify" component={Verify} />
        <Route path="/auth/set-password" component={SetPassword} />
        <Route path="/" component={Home} />
        <Route path="/keys" component={Keys} />
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
