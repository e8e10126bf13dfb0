"""writing"""
