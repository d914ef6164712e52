// A game launcher with Node's openid-client (v6): a public client (no secret) that pushes its authorization
// request first (PAR, RFC 9126), proves it with PKCE, and holds DPoP-bound tokens (RFC 9449): every token request
// and every call to a protected resource carries a new proof of the launcher's own key, so a copy of its tokens is
// worth nothing without that key. It calls both UserInfo endpoints with its proofs, checks that its token copied
// elsewhere is refused (as Bearer, or with another key's proof), refreshes (the refresh token is bound to the key
// too) and checks that the request_uri worked once.
//
// Run by oauth/NodeOpenIdClientIT; by hand against a running service:
//   OP_ISSUER=http://localhost:8080 RP_CLIENT_ID=... RP_REDIRECT_URI=http://127.0.0.1:7777/cb \
//   RP_USER_EMAIL=... RP_USER_PASSWORD=... node launcher-par-dpop.mjs
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

// --- the player's browser: cookies, no automatic redirects, the login form ----------------------------------

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
    const [pair] = header.split(';');
    const equals = pair.indexOf('=');
    const value = pair.slice(equals + 1).trim();
    if (value === '') {
      cookies.delete(pair.slice(0, equals).trim());
    } else {
      cookies.set(pair.slice(0, equals).trim(), value);
    }
  }
  return response;
}

function field(html, name) {
  for (const input of html.match(/<input\b[^>]*>/gi) ?? []) {
    if (new RegExp(`\\bname="${name}"`).test(input)) {
      const value = input.match(/\bvalue="([^"]*)"/);
      return value ? value[1].replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'") : '';
    }
  }
  return undefined;
}

/** Follows the authorization request until the service sends the browser to the launcher's loopback address. */
async function userAgent(start, redirectUri, credentials) {
  const pages = [];
  let url = start;
  for (let hop = 0; hop < 10; hop++) {
    const response = await browser('GET', url);
    if (response.status === 302 || response.status === 303) {
      const next = new URL(response.headers.get('location'), url);
      if (next.href.startsWith(redirectUri)) {
        return { callback: next, pages };
      }
      url = next.href;
      continue;
    }
    check(response.status === 200, `GET ${new URL(url).pathname}: ${response.status}`);
    const html = await response.text();
    check(/id="login-form"/.test(html), `unexpected page at ${new URL(url).pathname}`);
    pages.push('login');
    const form = { username: credentials.email, password: credentials.password, _csrf: field(html, '_csrf') };
    if (field(html, 'redirect') !== undefined) {
      form.redirect = field(html, 'redirect');
    }
    const answer = await browser('POST', new URL('/login/', url), form);
    check(answer.status === 302, `login: ${answer.status}`);
    url = new URL(answer.headers.get('location'), url).href;
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

// --- the launcher -------------------------------------------------------------------------------------------

async function main() {
  const issuer = new URL(env('OP_ISSUER'));
  const clientId = env('RP_CLIENT_ID');
  const redirectUri = env('RP_REDIRECT_URI');
  const credentials = { email: env('RP_USER_EMAIL'), password: env('RP_USER_PASSWORD') };

  step = 'discovery';
  // a public client: client_id alone (token_endpoint_auth_method none); http on the loopback address in the test
  const config = await client.discovery(issuer, clientId, { redirect_uris: [redirectUri] }, client.None(),
    { execute: [client.allowInsecureRequests] });
  const metadata = config.serverMetadata();
  check(metadata.pushed_authorization_request_endpoint === `${metadata.issuer}/oauth/par.php`,
    `pushed_authorization_request_endpoint ${metadata.pushed_authorization_request_endpoint}`);
  check(metadata.require_pushed_authorization_requests === false, 'require_pushed_authorization_requests');
  check(metadata.dpop_signing_alg_values_supported?.includes('ES256'), 'ES256 among the DPoP algorithms');
  passed(step, { par: metadata.pushed_authorization_request_endpoint });

  // the launcher's key: made once, kept on the player's machine (here: for this run)
  const keyPair = await client.randomDPoPKeyPair('ES256');
  const DPoP = client.getDPoPHandle(config, keyPair);

  step = 'pushed request';
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const authorizationUrl = await client.buildAuthorizationUrlWithPAR(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  }, { DPoP });
  const sent = [...authorizationUrl.searchParams.keys()].sort().join(',');
  check(sent === 'client_id,request_uri', `the browser carries ${sent}`);
  const requestUri = authorizationUrl.searchParams.get('request_uri');
  check(/^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/.test(requestUri), `request_uri ${requestUri}`);
  passed(step, { browser_carries: sent.split(',') });

  step = 'authorization';
  const { callback, pages } = await userAgent(authorizationUrl.href, redirectUri, credentials);
  passed(step, { pages });

  step = 'code exchange';
  const tokens = await client.authorizationCodeGrant(config, callback,
    { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true },
    undefined, { DPoP });
  check(tokens.token_type.toLowerCase() === 'dpop', `token_type ${tokens.token_type}`);
  check(typeof tokens.refresh_token === 'string', 'a launcher gets a refresh token');
  const claims = tokens.claims();
  passed(step, { token_type: tokens.token_type, sub: claims.sub });

  step = 'userinfo';
  const userInfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub, { DPoP });
  check(userInfo.sub === claims.sub && userInfo.email === credentials.email, 'UserInfo with a proof');
  passed(step, { sub: userInfo.sub });

  step = 'api userinfo';
  const apiUserInfo = new URL('/api/userinfo.php', `${metadata.issuer}/`);
  const api = await client.fetchProtectedResource(config, tokens.access_token, apiUserInfo, 'GET', undefined,
    undefined, { DPoP });
  check(api.status === 200, `/api/userinfo.php: ${api.status}`);
  const profile = await api.json();
  check(profile.ok === true && `user:${profile.user.id}` === claims.sub && profile.user.correo === credentials.email,
    `/api/userinfo.php answered ${JSON.stringify(profile)}`);
  passed(step, { id: profile.user.id });

  step = 'stolen token';
  // the token copied to another machine: as a Bearer token, or with a proof of the thief's own key
  const asBearer = await fetch(apiUserInfo, { headers: { authorization: `Bearer ${tokens.access_token}` } });
  check(asBearer.status === 401, `as Bearer: ${asBearer.status}`);
  const bearerBody = await asBearer.json();
  check(bearerBody.error === 'Token inválido o revocado', `as Bearer: ${JSON.stringify(bearerBody)}`);
  const thief = client.getDPoPHandle(config, await client.randomDPoPKeyPair('ES256'));
  const otherKey = await refused(client.fetchUserInfo(config, tokens.access_token, claims.sub, { DPoP: thief }),
    'the token with another key\'s proof');
  check(otherKey instanceof client.WWWAuthenticateChallengeError && otherKey.status === 401
    && otherKey.cause?.some((challenge) => challenge.scheme === 'dpop'
      && challenge.parameters?.error === 'invalid_dpop_proof'),
    `another key answered ${otherKey.status} ${otherKey.message}`);
  passed(step, { bearer: asBearer.status, other_key: otherKey.status });

  step = 'refresh';
  const withoutKey = await refused(client.refreshTokenGrant(config, tokens.refresh_token), 'a refresh without proof');
  check(withoutKey instanceof client.ResponseBodyError && withoutKey.error === 'invalid_dpop_proof',
    `a refresh without proof answered ${withoutKey.error ?? withoutKey.message}`);
  const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token, undefined, { DPoP });
  check(refreshed.token_type.toLowerCase() === 'dpop', `refreshed token_type ${refreshed.token_type}`);
  check(refreshed.refresh_token !== tokens.refresh_token, 'the refresh token rotates');
  const again = await client.fetchUserInfo(config, refreshed.access_token, claims.sub, { DPoP });
  check(again.sub === claims.sub, 'UserInfo after the refresh');
  passed(step, { without_proof: withoutKey.error, rotated: true });

  step = 'request_uri once';
  const reused = await browser('GET', authorizationUrl.href);
  check(reused.status === 400, `the request_uri again: ${reused.status}`);
  passed(step, { status: reused.status });

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
