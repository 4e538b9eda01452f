"""Everything that decides: models, catalog, cost model, scoring. Never imports Qt."""
