"""`ascgen check`: libclang front end (parse), what the user's files define (index), the path model of
each kernel entry (paths, summary, tokstmt), the rules (rules) and the output formats (format)."""
from ascgen.check.checker import CheckResult, check_file

__all__ = ["CheckResult", "check_file"]
