import type * as Device from '../contract/device.js';
import { deviceOperations } from '../contract/operations/device.js';
import { ApiClient, type FetchLike } from '../client/api.js';

/**
 * The device routes (CHOICE-7) as the SDK calls them: every call carries the session token the
 * app got from its backend. No control plane here: it works against any base URL.
 */
export class DeviceClient {
  private readonly api: ApiClient;

  constructor(
    readonly baseUrl: string,
    public token: string,
    fetchImpl?: FetchLike,
  ) {
    this.api = new ApiClient(baseUrl, fetchImpl);
  }

  async challenge() {
    return (await this.api.call(deviceOperations.createDeviceChallenge, { bearer: this.token })).body;
  }

  async enroll(body: Device.EnrollmentRequest) {
    return (await this.api.call(deviceOperations.enrollInstallation, { bearer: this.token, body })).body;
  }

  async models() {
    return (await this.api.call(deviceOperations.listModels, { bearer: this.token })).body;
  }

  /** Downloads the bytes of a model version named by the manifest. */
  async downloadModel(modelVersion: string): Promise<Buffer> {
    const response = await this.api.send(deviceOperations.downloadModel, { bearer: this.token, params: { model_version: modelVersion } });
    return Buffer.from(await response.arrayBuffer());
  }

  async modelKey(body: Device.ModelKeyRequest) {
    return (await this.api.call(deviceOperations.getModelKey, { bearer: this.token, body })).body;
  }

  async meshFit(body: Device.MeshFitRequest) {
    return (await this.api.call(deviceOperations.createMeshFit, { bearer: this.token, body })).body;
  }

  async scanEvent(body: Device.ScanEventRequest, idempotencyKey: string) {
    const result = await this.api.call(deviceOperations.reportScanEvent, {
      bearer: this.token,
      body,
      headers: { 'idempotency-key': idempotencyKey },
    });
    return { status: result.status, replayed: result.headers.get('idempotent-replayed') === 'true', body: result.body };
  }

  async uploadResult(scanId: string, body: Device.ResultUploadRequest) {
    return (await this.api.call(deviceOperations.uploadScanResult, { bearer: this.token, params: { scan_id: scanId }, body })).body;
  }
}
