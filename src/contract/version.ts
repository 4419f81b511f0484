/**
 * VER-1: the version of the backend interface this emulator implements (not the scan model's). A module
 * of its own: the control schemas, the OpenAPI document and the clock route read it, and nothing else.
 */
export const INTERFACE_VERSION = '1.0.0';
