/** VER-1: the version of the backend interface this emulator implements (not the scan model's). */
export const INTERFACE_VERSION = '1.0.0';
