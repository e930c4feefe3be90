# The benchmarks are not tests: pytest must never collect this folder.
collect_ignore_glob = ["*"]
