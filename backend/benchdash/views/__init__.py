"""Read models that cross domains (overview cards, system detail, run lists and details,
comparisons, alert listings): the top layer, which every domain below may not import."""
