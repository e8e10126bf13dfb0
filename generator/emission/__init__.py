"""emission"""
