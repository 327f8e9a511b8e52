"""What a book runs, found before anything runs.

- `blocks`: a page's executed fences as blocks, with their ids, snippets and options.
- `options`: the options a fence or lab cell may carry, and the book's yes/no rules.
"""
