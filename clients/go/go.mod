module scanctl.local/scanctltest

go 1.19
