/** Kubernetes `Status` failure bodies, shaped as kube-apiserver sends them. */

export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: string;
  details?: { name?: string; group?: string; kind?: string; retryAfterSeconds?: number };
  code: number;
}

export class ApiStatusError extends Error {
  constructor(readonly body: StatusBody) {
    super(body.message);
  }

  get code(): number {
    return this.body.code;
  }
}

function status(code: number, reason: string, message: string, details?: StatusBody['details']): ApiStatusError {
  return new ApiStatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  });
}

const qualified = (plural: string, group: string): string => (group ? `${plural}.${group}` : plural);

export const statusErrors = {
  notFound: (plural: string, group: string, name: string): ApiStatusError =>
    status(404, 'NotFound', `${qualified(plural, group)} "${name}" not found`, { name, group, kind: plural }),
  pathNotFound: (): ApiStatusError => status(404, 'NotFound', 'the server could not find the requested resource'),
  alreadyExists: (plural: string, group: string, name: string): ApiStatusError =>
    status(409, 'AlreadyExists', `${qualified(plural, group)} "${name}" already exists`, { name, group, kind: plural }),
  conflict: (plural: string, group: string, name: string): ApiStatusError =>
    status(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualified(plural, group)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
      { name, group, kind: plural },
    ),
  badRequest: (message: string): ApiStatusError => status(400, 'BadRequest', message),
  methodNotAllowed: (message: string): ApiStatusError => status(405, 'MethodNotAllowed', message),
  unauthorized: (): ApiStatusError => status(401, 'Unauthorized', 'Unauthorized'),
  forbidden: (verb: string, plural: string, group: string, namespace: string | undefined, user: string): ApiStatusError =>
    status(
      403,
      'Forbidden',
      `${qualified(plural, group)} is forbidden: User "${user}" cannot ${verb} resource "${plural}" in API group "${group}" ${namespace ? `in the namespace "${namespace}"` : 'at the cluster scope'}`,
      { group, kind: plural },
    ),
  gone: (requested: string, oldest: string): ApiStatusError => status(410, 'Expired', `too old resource version: ${requested} (${oldest})`),
  internal: (message: string): ApiStatusError => status(500, 'InternalError', `Internal error occurred: ${message}`),
  unavailable: (message: string): ApiStatusError => status(503, 'ServiceUnavailable', message),
};
