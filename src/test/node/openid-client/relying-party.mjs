// A real relying party: Node's openid-client (v6, https://github.com/panva/openid-client) logs a user in
// through the identity service with nothing but the issuer, a client id and its secret, then lives the rest
// of a web site's session: UserInfo, a refresh with rotation, reuse of the old refresh token (the family is
// revoked), and RP-initiated logout. No browser: this program is the browser too (a cookie jar, the login
// form with its _csrf field, the consent page), following every redirect by hand.
//
// Run by oauth/NodeOpenIdClientIT; by hand against a running service:
//   OP_ISSUER=http://localhost:8080 RP_CLIENT_ID=... RP_CLIENT_SECRET=... RP_REDIRECT_URI=... \
//   RP_POST_LOGOUT_REDIRECT_URI=... RP_USER_EMAIL=... RP_USER_PASSWORD=... node relying-party.mjs
// Prints one JSON summary on stdout; exits 0 when every check passed, 1 otherwise.

import * as client from 'openid-client';

const env = (name) => {
  const value = process.env[name];
  if (!value) {
    throw new Error(`environment variable ${name} is not set`);
  }
  return value;
};

const summary = { ok: false, library: 'openid-client', steps: [] };
let step = 'setup';

function check(condition, message) {
  if (!condition) {
    throw new Error(message);
  }
}

function passed(name, details = {}) {
  summary.steps.push({ step: name, ...details });
}

// --- a browser without a screen: cookies, no automatic redirects -----------------------------------------

const cookies = new Map();

async function browser(method, url, form) {
  const headers = { accept: 'text/html' };
  if (cookies.size > 0) {
    headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  let body;
  if (form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(form).toString();
  }
  const response = await fetch(url, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(15000) });
  for (const header of response.headers.getSetCookie()) {
    const [pair, ...attributes] = header.split(';');
    const equals = pair.indexOf('=');
    const name = pair.slice(0, equals).trim();
    const value = pair.slice(equals + 1).trim();
    const expired = attributes.some((a) => /^\s*max-age\s*=\s*0\s*$/i.test(a));
    if (expired || value === '') {
      cookies.delete(name);
    } else {
      cookies.set(name, value);
    }
  }
  return response;
}

function location(response, base) {
  const value = response.headers.get('location');
  check(value, `${response.status} without a Location header`);
  return new URL(value, base);
}

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeHtml(text) {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, entity) => {
    if (entity[0] === '#') {
      const code = entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return String.fromCodePoint(code);
    }
    return ENTITIES[entity.toLowerCase()] ?? whole;
  });
}

/** The value of the form field `name` (an input), or undefined. */
function field(html, name) {
  for (const input of html.match(/<input\b[^>]*>/gi) ?? []) {
    if (new RegExp(`\\bname="${name}"`).test(input)) {
      const value = input.match(/\bvalue="([^"]*)"/);
      return value ? unescapeHtml(value[1]) : '';
    }
  }
  return undefined;
}

/**
 * The user's side of an authorization request: follows redirects from `start` until one goes to the
 * relying party's redirect URI, filling in the login form and approving the consent page on the way.
 * Returns that callback URL and the pages seen.
 */
async function userAgent(start, redirectUri, credentials) {
  const pages = [];
  let url = start;
  for (let hop = 0; hop < 12; hop++) {
    const response = await browser('GET', url);
    if (response.status === 302 || response.status === 303) {
      const next = location(response, url);
      if (next.href.startsWith(redirectUri)) {
        return { callback: next, pages };
      }
      check(next.origin === new URL(start).origin, `sent away from the service to ${next.origin}`);
      url = next.href;
      continue;
    }
    check(response.status === 200, `GET ${new URL(url).pathname}: ${response.status}`);
    const html = await response.text();
    const csrf = field(html, '_csrf');
    let answer;
    if (/id="login-form"/.test(html)) {
      check(csrf, 'the login form has no _csrf field');
      pages.push('login');
      const form = { username: credentials.email, password: credentials.password, _csrf: csrf };
      const redirect = field(html, 'redirect');
      if (redirect !== undefined) {
        form.redirect = redirect;
      }
      answer = await browser('POST', new URL('/login/', url), form);
      check(answer.status === 302, `login: ${answer.status} (wrong credentials?)`);
    } else if (/id="consent-form"/.test(html)) {
      check(csrf, 'the consent form has no _csrf field');
      check(field(html, 'request'), 'the consent form has no request field');
      check(/name="decision" value="allow"/.test(html), 'the consent form has no allow button');
      pages.push('consent');
      answer = await browser('POST', new URL('/oauth/consent', url),
        { request: field(html, 'request'), decision: 'allow', _csrf: csrf });
      check(answer.status === 302, `consent: ${answer.status}`);
    } else {
      throw new Error(`unexpected page at ${new URL(url).pathname}`);
    }
    url = location(answer, url).href;
    if (url.startsWith(redirectUri)) {
      return { callback: new URL(url), pages };
    }
  }
  throw new Error('too many redirects');
}

async function refused(promise, what) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error(`${what} was accepted`);
}

// --- the relying party ------------------------------------------------------------------------------------

async function main() {
  const issuer = new URL(env('OP_ISSUER'));
  const clientId = env('RP_CLIENT_ID');
  const clientSecret = env('RP_CLIENT_SECRET');
  const redirectUri = env('RP_REDIRECT_URI');
  const postLogoutRedirectUri = env('RP_POST_LOGOUT_REDIRECT_URI');
  const credentials = { email: env('RP_USER_EMAIL'), password: env('RP_USER_PASSWORD') };
  const scope = 'openid email profile offline_access';

  step = 'discovery';
  // http on the loopback address in the test, hence allowInsecureRequests; the issuer must match exactly
  const config = await client.discovery(issuer, clientId, { client_secret: clientSecret, redirect_uris: [redirectUri] },
    client.ClientSecretPost(clientSecret), { execute: [client.allowInsecureRequests] });
  const metadata = config.serverMetadata();
  check(metadata.issuer === issuer.href.replace(/\/$/, ''), `issuer ${metadata.issuer}`);
  for (const endpoint of ['authorization_endpoint', 'token_endpoint', 'jwks_uri', 'userinfo_endpoint',
    'end_session_endpoint', 'introspection_endpoint', 'revocation_endpoint']) {
    check(metadata[endpoint], `discovery has no ${endpoint}`);
  }
  check(metadata.supportsPKCE(), 'discovery does not announce PKCE S256');
  passed(step, { issuer: metadata.issuer });

  step = 'authorization';
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const authorizationUrl = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const { callback, pages } = await userAgent(authorizationUrl.href, redirectUri, credentials);
  check(pages.join(',') === 'login,consent', `pages seen: ${pages.join(',')} (expected the login form, then consent for offline_access)`);
  passed(step, { pages });

  step = 'code exchange';
  // validates the authorization response (state, iss when sent) and the id_token: signature against the
  // JWKS, iss, aud, exp, iat, nonce
  const tokens = await client.authorizationCodeGrant(config, callback,
    { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
  const claims = tokens.claims();
  check(/^user:[0-9]+$/.test(claims.sub), `sub ${claims.sub}`);
  check(claims.aud === clientId || (Array.isArray(claims.aud) && claims.aud.includes(clientId)), 'aud');
  check(claims.email === credentials.email, `email ${claims.email}`);
  check(claims.email_verified === false, `email_verified ${claims.email_verified}`);
  check(typeof claims.name === 'string' && claims.name.length > 0, 'name');
  check(typeof claims.auth_time === 'number', 'auth_time');
  check(Array.isArray(claims.amr) && claims.amr.includes('pwd'), `amr ${JSON.stringify(claims.amr)}`);
  check(tokens.token_type.toLowerCase() === 'bearer', `token_type ${tokens.token_type}`);
  check(tokens.expiresIn() > 0, 'expires_in');
  check(typeof tokens.refresh_token === 'string', 'no refresh_token for offline_access');
  check(tokens.scope === undefined || tokens.scope.split(' ').includes('offline_access'), `scope ${tokens.scope}`);
  passed(step, { sub: claims.sub, amr: claims.amr, refresh_token: true });

  step = 'userinfo';
  const userInfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
  check(userInfo.sub === claims.sub, 'UserInfo sub');
  check(userInfo.email === credentials.email, `UserInfo email ${userInfo.email}`);
  check(userInfo.email_verified === false, 'UserInfo email_verified');
  check(userInfo.name === claims.name && userInfo.given_name === claims.name, 'UserInfo name and given_name');
  passed(step, { claims: Object.keys(userInfo) });

  step = 'refresh';
  const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token);
  check(refreshed.access_token !== tokens.access_token, 'the access token was not renewed');
  check(typeof refreshed.refresh_token === 'string' && refreshed.refresh_token !== tokens.refresh_token,
    'the refresh token was not rotated');
  if (refreshed.id_token) {
    const again = refreshed.claims();
    check(again.sub === claims.sub && again.auth_time === claims.auth_time, 'the new id_token is of another login');
  }
  const userInfoAfterRefresh = await client.fetchUserInfo(config, refreshed.access_token, claims.sub);
  check(userInfoAfterRefresh.sub === claims.sub, 'UserInfo after refresh');
  passed(step, { rotated: true, id_token: Boolean(refreshed.id_token) });

  step = 'refresh token reuse';
  const reuse = await refused(client.refreshTokenGrant(config, tokens.refresh_token), 'the rotated refresh token');
  check(reuse instanceof client.ResponseBodyError && reuse.error === 'invalid_grant',
    `reuse answered ${reuse.error ?? reuse.message}`);
  const family = await refused(client.refreshTokenGrant(config, refreshed.refresh_token),
    'the newest refresh token after a reuse');
  check(family instanceof client.ResponseBodyError && family.error === 'invalid_grant',
    `the newest refresh token answered ${family.error ?? family.message}`);
  const dead = await refused(client.fetchUserInfo(config, refreshed.access_token, claims.sub),
    'the family\'s access token at UserInfo');
  check(dead instanceof client.WWWAuthenticateChallengeError && dead.status === 401
    && dead.cause?.some((challenge) => challenge.parameters?.error === 'invalid_token'),
    `UserInfo answered ${dead.status} ${dead.message}`);
  const introspection = await client.tokenIntrospection(config, refreshed.access_token);
  check(introspection.active === false, 'the family\'s access token is still active');
  passed(step, { reuse: reuse.error, family_revoked: true });

  step = 'logout';
  const logoutState = client.randomState();
  const endSession = client.buildEndSessionUrl(config, {
    id_token_hint: tokens.id_token,
    post_logout_redirect_uri: postLogoutRedirectUri,
    state: logoutState,
  });
  const logout = await browser('GET', endSession.href);
  check(logout.status === 302, `end session: ${logout.status}`);
  const back = location(logout, endSession);
  const expected = new URL(postLogoutRedirectUri);
  expected.searchParams.set('state', logoutState);
  check(back.href === expected.href, `end session sent the browser to ${back.href}`);
  // the session is gone: a silent authorization request is answered login_required
  const silentState = client.randomState();
  const silent = await browser('GET', client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri, scope: 'openid', prompt: 'none', state: silentState, nonce: client.randomNonce(),
  }).href);
  check(silent.status === 302, `prompt=none after logout: ${silent.status}`);
  const silentCallback = location(silent, metadata.authorization_endpoint);
  const loginRequired = await refused(client.authorizationCodeGrant(config, silentCallback,
    { expectedState: silentState }), 'prompt=none after logout');
  check(loginRequired instanceof client.AuthorizationResponseError && loginRequired.error === 'login_required',
    `prompt=none after logout answered ${loginRequired.error ?? loginRequired.message}`);
  passed(step, { post_logout_redirect: back.href, session: 'ended' });

  summary.ok = true;
}

const watchdog = setTimeout(() => {
  summary.error = `timed out in step "${step}"`;
  console.log(JSON.stringify(summary));
  process.exit(2);
}, 90_000);

try {
  await main();
} catch (error) {
  summary.failed_step = step;
  summary.error = `${error.name}: ${error.message}${error.error ? ` (${error.error})` : ''}`;
} finally {
  clearTimeout(watchdog);
}
console.log(JSON.stringify(summary));
process.exitCode = summary.ok ? 0 : 1;
