import type * as Device from '../contract/device.js';
import { ApiCallError, call, ConnectionError } from '../client/http.js';

/**
 * A typed client of the device routes (CHOICE-7), as the SDK calls them: every call carries the
 * session token the app got from its backend. No control plane here: it works against any base URL.
 */
export class DeviceClient {
  constructor(
    readonly baseUrl: string,
    public token: string,
  ) {}

  private get auth() {
    return { authorization: `Bearer ${this.token}` };
  }

  private async post<T>(path: string, json: unknown, headers: Record<string, string> = {}) {
    return call<T>(this.baseUrl, 'POST', path, { headers: { ...this.auth, ...headers }, json });
  }

  async challenge(): Promise<Device.ChallengeResponse> {
    return (await this.post<Device.ChallengeResponse>('/v1/device/challenge', undefined)).body;
  }

  async enroll(body: Device.EnrollmentRequest): Promise<Device.EnrollmentResponse> {
    return (await this.post<Device.EnrollmentResponse>('/v1/device/enrollments', body)).body;
  }

  async models(): Promise<Device.ModelManifest> {
    return (await call<Device.ModelManifest>(this.baseUrl, 'GET', '/v1/models', { headers: this.auth })).body;
  }

  /** Downloads model bytes (not JSON), with the same error mapping as `call`. */
  async downloadModel(url: string): Promise<Buffer> {
    const target = new URL(url, this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    let response: Response;
    try {
      response = await fetch(target, { headers: this.auth, redirect: 'manual' });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      throw new ConnectionError(this.baseUrl, cause?.code ?? (error as Error).message);
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    if (response.status >= 300) {
      let error = null;
      try {
        error = (JSON.parse(bytes.toString('utf8')) as { error?: ApiCallError['error'] }).error ?? null;
      } catch {
        error = null;
      }
      throw new ApiCallError(response.status, error, 'GET', target.pathname, response.headers);
    }
    return bytes;
  }

  async modelKey(body: Device.ModelKeyRequest): Promise<Device.ModelKeyResponse> {
    return (await this.post<Device.ModelKeyResponse>('/v1/model-key', body)).body;
  }

  async meshFit(body: Device.MeshFitRequest): Promise<Device.MeshFitResponse> {
    return (await this.post<Device.MeshFitResponse>('/v1/mesh-fits', body)).body;
  }

  async scanEvent(body: Device.ScanEventRequest, idempotencyKey: string): Promise<{ status: number; replayed: boolean; body: Device.ScanEventResponse }> {
    const result = await this.post<Device.ScanEventResponse>('/v1/scan-events', body, { 'idempotency-key': idempotencyKey });
    return { status: result.status, replayed: result.headers.get('idempotent-replayed') === 'true', body: result.body };
  }

  async uploadResult(scanId: string, body: Device.ResultUploadRequest): Promise<Device.ResultUploadResponse> {
    const path = `/v1/scans/${encodeURIComponent(scanId)}/result`;
    return (await call<Device.ResultUploadResponse>(this.baseUrl, 'PUT', path, { headers: this.auth, json: body })).body;
  }
}
