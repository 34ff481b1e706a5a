// The console's signer against AWS's published SigV4 test vectors (the "get-vanilla" and
// "post-x-www-form-urlencoded"-style cases of the SigV4 test suite use these example keys), so a
// wrong canonical request, scope or key derivation fails here rather than in a deployed API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signedHeaders } from '../../src/sigv4.js';

const credentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};
const signingDate = new Date('2015-08-30T12:36:00Z');

test('get-vanilla: the published signature of a bare GET', async () => {
  const headers = await signedHeaders({
    method: 'GET',
    url: 'https://example.amazonaws.com/',
    credentials,
    region: 'us-east-1',
    service: 'service',
    signingDate,
  });
  assert.equal(headers['x-amz-date'], '20150830T123600Z');
  assert.equal(
    headers.authorization,
    'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, ' +
      'SignedHeaders=host;x-amz-date, ' +
      'Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
  );
  assert.equal(headers.host, undefined, 'the browser sets host itself');
});

test('get-vanilla-query-order-key-case: query parameters are signed in canonical order', async () => {
  const headers = await signedHeaders({
    method: 'GET',
    url: 'https://example.amazonaws.com/?Param2=value2&Param1=value1',
    credentials,
    region: 'us-east-1',
    service: 'service',
    signingDate,
  });
  assert.match(
    headers.authorization,
    /Signature=b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500$/,
  );
});

test('temporary credentials sign their session token and any other key changes the signature', async () => {
  const call = (creds) =>
    signedHeaders({
      method: 'POST',
      url: 'https://abc123.execute-api.eu-west-1.amazonaws.com/api/deploy',
      headers: { 'content-type': 'application/json' },
      body: '{"graph":{}}',
      credentials: creds,
      region: 'eu-west-1',
      signingDate,
    });
  const withToken = await call({ ...credentials, sessionToken: 'session-token' });
  assert.equal(withToken['x-amz-security-token'], 'session-token');
  assert.match(withToken.authorization, /SignedHeaders=content-type;host;x-amz-date;x-amz-security-token,/);
  assert.match(withToken.authorization, /Credential=AKIDEXAMPLE\/20150830\/eu-west-1\/execute-api\/aws4_request/);
  const otherKey = await call({ ...credentials, secretAccessKey: 'another', sessionToken: 'session-token' });
  assert.notEqual(otherKey.authorization, withToken.authorization);
});
