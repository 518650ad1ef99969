// A custom merger for cloud-config-merge, with the contract of cloud-init's m_<name>.py modules:
// a Merger class built with the root merger and the spec's options, and one _on_<type> method per
// type it merges (the type of the EXISTING value). Use it in a spec as `uniq_list()`, before any
// list() merger (the first merger with an _on_list method handles lists):
//
//   merge_how: 'dict(no_replace,recurse_list)+uniq_list()+str()'
//
//   cloud-config-merge --custom-merger uniq_list=examples/custom-mergers/m_uniq_list.js FILES...
'use strict';

exports.description = 'Appends the new list items that are not in the list yet (keeps the existing order). Option "prepend" puts them first.';

exports.Merger = class UniqListMerger {
  constructor(root, options, py) {
    this.root = root;
    this.py = py;
    this.prepend = Array.isArray(options) && options.includes('prepend');
  }

  _on_list(value, mergeWith) {
    if (!Array.isArray(mergeWith)) return mergeWith;
    const added = [];
    for (const item of mergeWith) {
      const known = [...value, ...added].some((existing) => this.py.equals(existing, item));
      if (!known) added.push(item);
    }
    return this.prepend ? [...added, ...value] : [...value, ...added];
  }
};
