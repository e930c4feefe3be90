"""Build-time tools, outside the package: table extraction from the rule documents, workbook comparison."""
