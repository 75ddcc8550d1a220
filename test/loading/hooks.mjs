// The resolve hook of record.mjs: posts each bare specifier (a package, not a relative path or a
// `node:` builtin) to the main thread.
let port;

export function initialize(data) {
  port = data.port;
}

export async function resolve(specifier, context, next) {
  if (!/^(\.|\/|node:|file:|data:)/.test(specifier)) port.postMessage(specifier);
  return next(specifier, context);
}
