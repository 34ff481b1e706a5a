// Operator sign-in in AWS (decision 1752): the user pool checks the password (USER_PASSWORD_AUTH,
// the client has no secret), the identity pool trades the ID token for an hour of credentials of
// the console's operator role, and api.js signs every call with them. Tokens and credentials stay
// in this module's memory only: a reload signs in again, and nothing is left in storage.
// Locally there is no sign-in: the loopback front's one-time token stands in (config.json absent).

let settings; // {region, userPoolId, clientId, identityPoolId}
let idToken;
let credentials; // {accessKeyId, secretAccessKey, sessionToken, expiresAt}
let pendingChallenge; // {username, session} while Cognito asks for a new password

export function configureSignIn(signIn) {
  settings = signIn;
}

export function signInRequired() {
  return Boolean(settings);
}

export function signedIn() {
  return Boolean(credentials) && credentials.expiresAt - Date.now() > 60_000;
}

export function region() {
  return settings.region;
}

export class SignInRefused extends Error {}

// One JSON call to a Cognito service: these two actions need no signature.
async function cognito(service, target, body) {
  const host = service === 'idp' ? 'cognito-idp' : 'cognito-identity';
  const prefix = service === 'idp' ? 'AWSCognitoIdentityProviderService' : 'AWSCognitoIdentityService';
  const response = await fetch(`https://${host}.${settings.region}.amazonaws.com/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `${prefix}.${target}` },
    body: JSON.stringify(body),
  });
  const json = await response.json().catch(() => ({}));
  if (!response.ok) {
    // Cognito's own message ("Incorrect username or password.") says what to fix.
    throw new SignInRefused(json.message || json.Message || `${target} refused (${response.status})`);
  }
  return json;
}

// Signs in; resolves to 'signed-in' or 'new-password' when Cognito wants the temporary password
// replaced (an administrator-created user's first sign-in).
export async function signIn(username, password) {
  const reply = await cognito('idp', 'InitiateAuth', {
    AuthFlow: 'USER_PASSWORD_AUTH',
    ClientId: settings.clientId,
    AuthParameters: { USERNAME: username, PASSWORD: password },
  });
  return afterAuth(reply, username);
}

export async function setNewPassword(newPassword) {
  if (!pendingChallenge) throw new SignInRefused('no sign-in is waiting for a new password');
  const reply = await cognito('idp', 'RespondToAuthChallenge', {
    ChallengeName: 'NEW_PASSWORD_REQUIRED',
    ClientId: settings.clientId,
    Session: pendingChallenge.session,
    ChallengeResponses: { USERNAME: pendingChallenge.username, NEW_PASSWORD: newPassword },
  });
  return afterAuth(reply, pendingChallenge.username);
}

async function afterAuth(reply, username) {
  if (reply.ChallengeName === 'NEW_PASSWORD_REQUIRED') {
    pendingChallenge = { username, session: reply.Session };
    return 'new-password';
  }
  if (reply.ChallengeName) {
    throw new SignInRefused(`sign-in needs ${reply.ChallengeName}, which this console does not answer yet`);
  }
  pendingChallenge = undefined;
  idToken = reply.AuthenticationResult.IdToken;
  await refreshCredentials();
  return 'signed-in';
}

async function refreshCredentials() {
  const logins = { [`cognito-idp.${settings.region}.amazonaws.com/${settings.userPoolId}`]: idToken };
  const { IdentityId } = await cognito('identity', 'GetId', { IdentityPoolId: settings.identityPoolId, Logins: logins });
  let Credentials;
  try {
    ({ Credentials } = await cognito('identity', 'GetCredentialsForIdentity', { IdentityId, Logins: logins }));
  } catch (e) {
    // The pool hands out only a group's role (decision 1753): a user in no group is refused here,
    // with a message of Cognito's that does not say so.
    if (!(e instanceof SignInRefused)) throw e;
    throw new SignInRefused(
      `${e.message} (a console user gets credentials only as a member of the platform-operators group or an account-<id> group)`,
    );
  }
  credentials = {
    accessKeyId: Credentials.AccessKeyId,
    secretAccessKey: Credentials.SecretKey,
    sessionToken: Credentials.SessionToken,
    // Cognito answers seconds since the epoch.
    expiresAt: Credentials.Expiration * 1000,
  };
}

// The credentials to sign with; refreshed from the ID token while it lasts, else null (sign in).
export async function currentCredentials() {
  if (signedIn()) return credentials;
  if (!idToken) return null;
  try {
    await refreshCredentials();
    return credentials;
  } catch {
    idToken = undefined;
    credentials = undefined;
    return null;
  }
}

export function signOut() {
  idToken = undefined;
  credentials = undefined;
  pendingChallenge = undefined;
}
