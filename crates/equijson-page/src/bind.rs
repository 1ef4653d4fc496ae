//! The DTOs a page is built for: a [`Binding`], installed once when the module starts
//! (by [`crate::bind!`]), and looked up by name with an error that lists the known ones.

use std::sync::OnceLock;

use equijson_check::dto::{Dto, DtoSpec};

/// The DTOs of one reviewers' page and the native command that replays its runs.
#[derive(Debug, Clone)]
pub struct Binding {
    command: &'static str,
    dtos: Vec<&'static DtoSpec>,
    default: Option<&'static str>,
}

/// Why a binding cannot be installed, or a DTO name is not in it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BindError {
    /// No binding was installed: the page crate has no [`crate::bind!`].
    #[error(
        "no DTOs are bound to this module: the page's cdylib crate calls equijson_page::bind!(...)"
    )]
    Unbound,
    /// A binding was installed already (a module starts once).
    #[error("a binding is installed already")]
    AlreadyBound,
    /// The binding names no DTO.
    #[error("the binding names no DTO")]
    Empty,
    /// Two DTOs of the binding have the same name (`Dto::name`).
    #[error("two DTOs of the binding are named {0:?}: give one of them its own `Dto::name`")]
    Duplicate(&'static str),
    /// The default DTO is not one of the binding's.
    #[error("the default DTO {default:?} is not bound (bound: {known})")]
    NoDefault {
        /// The default asked for.
        default: &'static str,
        /// The bound names, comma-separated.
        known: String,
    },
    /// A DTO name the binding does not hold.
    #[error("unknown DTO {name:?}: this page knows {known}")]
    UnknownDto {
        /// The name asked for.
        name: String,
        /// The bound names, comma-separated.
        known: String,
    },
}

impl Binding {
    /// An empty binding whose runs are replayed natively with `command` (the binary built
    /// with `equijson_cli::main_with`, or `equijson` for the built-in catalogue): the page
    /// shows `COMMAND props --seed S --cases N --dto NAME`.
    #[must_use]
    pub fn new(command: &'static str) -> Self {
        Self {
            command,
            dtos: Vec::new(),
            default: None,
        }
    }

    /// The built-in catalogue (`equijson dtos`), replayed with `equijson`, `value` first
    /// chosen as `equijson props` does without `--dto`.
    #[must_use]
    pub fn catalogue() -> Self {
        let mut b = Self::new("equijson");
        b.dtos.extend(equijson_check::dto::catalogue());
        b.default = Some(equijson_check::props::PropsConfig::new(0, 0, None).dto_name());
        b
    }

    /// Adds your DTO `T` (its [`equijson_check::dto::spec`]).
    #[must_use]
    pub fn dto<T: Dto>(self) -> Self {
        self.spec(equijson_check::dto::spec::<T>())
    }

    /// Adds a DTO by its spec.
    #[must_use]
    pub fn spec(mut self, spec: &'static DtoSpec) -> Self {
        self.dtos.push(spec);
        self
    }

    /// The DTO a page opened without `dto=` shows (default: the first one added).
    #[must_use]
    pub fn default_dto(mut self, name: &'static str) -> Self {
        self.default = Some(name);
        self
    }

    /// The native command that replays a run (`COMMAND props ...`).
    #[must_use]
    pub fn command(&self) -> &'static str {
        self.command
    }

    /// The bound DTOs, in the order they were added.
    #[must_use]
    pub fn dtos(&self) -> &[&'static DtoSpec] {
        &self.dtos
    }

    /// The DTO chosen when none is named.
    ///
    /// # Errors
    /// [`BindError::Empty`] for a binding without DTOs, [`BindError::NoDefault`] when the
    /// default named is not bound.
    pub fn default_spec(&self) -> Result<&'static DtoSpec, BindError> {
        match self.default {
            None => self.dtos.first().copied().ok_or(BindError::Empty),
            Some(name) => self.find(name).map_err(|_| BindError::NoDefault {
                default: name,
                known: self.known(),
            }),
        }
    }

    /// The DTO named `name`.
    ///
    /// # Errors
    /// [`BindError::UnknownDto`], whose message lists the names this binding knows.
    pub fn find(&self, name: &str) -> Result<&'static DtoSpec, BindError> {
        self.dtos
            .iter()
            .copied()
            .find(|d| d.name == name)
            .ok_or_else(|| BindError::UnknownDto {
                name: name.to_owned(),
                known: self.known(),
            })
    }

    /// The DTO named `name`, or the default one for `None` or an empty name.
    ///
    /// # Errors
    /// As [`Binding::find`] and [`Binding::default_spec`].
    pub fn resolve(&self, name: Option<&str>) -> Result<&'static DtoSpec, BindError> {
        match name {
            None | Some("") => self.default_spec(),
            Some(n) => self.find(n),
        }
    }

    /// Checks the binding is usable: at least one DTO, names unique, the default bound.
    ///
    /// # Errors
    /// [`BindError::Empty`], [`BindError::Duplicate`] or [`BindError::NoDefault`].
    pub fn validate(&self) -> Result<(), BindError> {
        for (i, d) in self.dtos.iter().enumerate() {
            if self.dtos[..i].iter().any(|e| e.name == d.name) {
                return Err(BindError::Duplicate(d.name));
            }
        }
        self.default_spec().map(|_| ())
    }

    fn known(&self) -> String {
        let names: Vec<&str> = self.dtos.iter().map(|d| d.name).collect();
        names.join(", ")
    }
}

static BOUND: OnceLock<Binding> = OnceLock::new();

/// Installs the page's binding (what [`crate::bind!`] does when the module starts).
///
/// # Errors
/// What [`Binding::validate`] finds, or [`BindError::AlreadyBound`].
pub fn install(binding: Binding) -> Result<(), BindError> {
    binding.validate()?;
    BOUND.set(binding).map_err(|_| BindError::AlreadyBound)
}

/// The installed binding.
///
/// # Errors
/// [`BindError::Unbound`] before [`install`].
pub fn bound() -> Result<&'static Binding, BindError> {
    BOUND.get().ok_or(BindError::Unbound)
}
