module example.com/scanctl-recipe

go 1.19
