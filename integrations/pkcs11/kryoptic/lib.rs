//! Nothing: this package exists to build kryoptic's module (`build.sh`).
