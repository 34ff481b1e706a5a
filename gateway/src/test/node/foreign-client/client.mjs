// A gRPC client of the ProtoMolt gateway written only from the project's .proto files, as a
// user of another language would write one. It makes the calls it is told to and prints one JSON
// line per call: {"call": ..., "code": <gRPC status name>, "detail": ..., "docId": ...}. It asserts
// nothing itself; the JUnit test that runs it does.
//
// Environment: GATEWAY (host:port), PROTO_DIR (proto/src/main/proto), DOC_REF (a
// DocumentReference as JSON), and the caller tokens ACME_TOKEN and BETA_TOKEN (authorization
// metadata values).
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';
import path from 'node:path';

const protoDir = process.env.PROTO_DIR;
const definition = protoLoader.loadSync(
  [
    path.join(protoDir, 'protomolt/repository/v1/pipedoc_service.proto'),
    path.join(protoDir, 'protomolt/module/v1/module_work_service.proto'),
  ],
  { includeDirs: [protoDir], keepCase: true, longs: String, enums: String, defaults: true },
);
const api = grpc.loadPackageDefinition(definition).protomolt;
const address = process.env.GATEWAY;
const docs = new api.repository.v1.PipeDocService(address, grpc.credentials.createInsecure());
const work = new api.module.v1.ModuleWorkService(address, grpc.credentials.createInsecure());
const ref = JSON.parse(process.env.DOC_REF);

function metadata(token) {
  const m = new grpc.Metadata();
  if (token) {
    m.set('authorization', token);
  }
  return m;
}

function codeName(code) {
  return Object.keys(grpc.status).find((k) => grpc.status[k] === code) ?? String(code);
}

function manifest(call, token) {
  return new Promise((resolve) => {
    docs.GetPipeDocManifest({ document_ref: ref }, metadata(token), (err, reply) => {
      if (err) {
        resolve({ call, code: codeName(err.code), detail: err.details });
      } else {
        resolve({ call, code: 'OK', docId: reply.manifest.doc_id });
      }
    });
  });
}

function hello(call, token) {
  return new Promise((resolve) => {
    const stream = work.Work(metadata(token));
    stream.on('data', (response) => {
      resolve({ call, code: 'OK', detail: Object.keys(response).join(',') });
      stream.cancel();
    });
    stream.on('error', (err) => resolve({ call, code: codeName(err.code), detail: err.details }));
    stream.write({ hello: { module_id: 'parser', instance_id: 'foreign-client' } });
  });
}

const results = [
  await manifest('manifest-without-credentials', null),
  await hello('work-without-credentials', null),
  await manifest('manifest-as-another-account', process.env.BETA_TOKEN),
  await manifest('manifest-as-its-account', process.env.ACME_TOKEN),
];
for (const r of results) {
  console.log(JSON.stringify(r));
}
docs.close();
work.close();
