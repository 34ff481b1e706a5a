// SigV4 for the console API in AWS (decision 1752): the HTTP API authorizes every route with IAM,
// so the signed-in page signs each call with the identity pool's temporary credentials. The
// signing is AWS's own (@smithy/signature-v4, the AWS SDK's signer, with @aws-crypto/sha256-js),
// pinned in package.json; this file only shapes the request for it.
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '@aws-crypto/sha256-js';

// Signs {method, url, headers, body} for `service` in `region` with `credentials`
// ({accessKeyId, secretAccessKey, sessionToken?}) and returns the headers to send (host excluded:
// a browser sets it, and it is the URL's). `signingDate` is for tests; calls use the clock.
export async function signedHeaders({ method, url, headers = {}, body, credentials, region, service = 'execute-api', signingDate }) {
  const target = new URL(url);
  const query = {};
  for (const [k, v] of target.searchParams) query[k] = v;
  const signer = new SignatureV4({
    credentials,
    region,
    service,
    sha256: Sha256,
    // API Gateway needs no payload hash header; leaving it out keeps the signed headers minimal.
    applyChecksum: false,
  });
  const signed = await signer.sign(
    {
      method,
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port ? Number(target.port) : undefined,
      path: target.pathname,
      query,
      headers: { ...headers, host: target.host },
      body,
    },
    signingDate ? { signingDate } : {},
  );
  const out = { ...signed.headers };
  delete out.host;
  return out;
}
