"""Printables with ReportLab: fonts, QR codes, shared layout, one module per sheet."""
