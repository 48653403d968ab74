// How the server reaches an S3 server: the AWS SDK's own settings (AWS_ENDPOINT_URL_S3 or
// AWS_ENDPOINT_URL, AWS_REGION or AWS_DEFAULT_REGION, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or
// any source of credentials the SDK reads), and S3_FORCE_PATH_STYLE=1 for servers that address
// buckets in the path (most self-hosted ones: Ceph, MinIO, Garage). README "Object storage".

export interface S3Settings {
  /** Unset: AWS S3 itself, at the region's endpoint. */
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  /** From AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; unset: the SDK's other sources. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** The settings in `env`, or what is wrong with one of them, in one line. */
export function s3SettingsFromEnv(
  env: NodeJS.ProcessEnv,
): { settings: S3Settings } | { problem: string } {
  const endpointName = env.AWS_ENDPOINT_URL_S3?.trim() ? 'AWS_ENDPOINT_URL_S3' : 'AWS_ENDPOINT_URL';
  const endpoint = env[endpointName]?.trim() || undefined;
  if (endpoint !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(endpoint);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      return {
        problem: `${endpointName}: expected an http:// or https:// address of the S3 server, got ${JSON.stringify(endpoint)}`,
      };
  }
  const region = env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim() || 'us-east-1';
  const pathStyle = env.S3_FORCE_PATH_STYLE?.trim().toLowerCase() ?? '';
  if (!['', '0', '1', 'true', 'false'].includes(pathStyle))
    return {
      problem: `S3_FORCE_PATH_STYLE: expected 1 (buckets in the path) or 0, got ${JSON.stringify(env.S3_FORCE_PATH_STYLE)}`,
    };
  const accessKeyId = env.AWS_ACCESS_KEY_ID?.trim();
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY?.trim();
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey))
    return {
      problem: `AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together: only ${accessKeyId ? 'AWS_ACCESS_KEY_ID' : 'AWS_SECRET_ACCESS_KEY'} is set`,
    };
  const sessionToken = env.AWS_SESSION_TOKEN?.trim() || undefined;
  return {
    settings: {
      endpoint,
      region,
      forcePathStyle: pathStyle === '1' || pathStyle === 'true',
      ...(accessKeyId && secretAccessKey
        ? {
            credentials: {
              accessKeyId,
              secretAccessKey,
              ...(sessionToken ? { sessionToken } : {}),
            },
          }
        : {}),
    },
  };
}
