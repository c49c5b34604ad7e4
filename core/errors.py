"""Typed errors for opening documents; each maps to a CLI exit code (spec §9)."""

from __future__ import annotations


class GlyphscopeError(Exception):
    """Base of every error the engine raises on purpose."""

    exit_code = 1


class DocumentNotFound(GlyphscopeError):
    exit_code = 4


class NotAPdf(GlyphscopeError):
    exit_code = 4


class PasswordRequired(GlyphscopeError):
    exit_code = 3


class WrongPassword(GlyphscopeError):
    exit_code = 3


class PageOutOfRange(GlyphscopeError):
    exit_code = 2
