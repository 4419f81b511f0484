module example.com/scanctl-recipe

go 1.19

require scanctl.local/scanctltest v0.0.0

replace scanctl.local/scanctltest => ../../clients/go
