//! Tensors: typed data from slices (copied, moved in, or borrowed), read back
//! as slices with their shapes.
use crate::error::{check, Code, Error, Result};
use crate::util::{c_path, cstr_str};
use crate::sys;
use std::any::Any;
use std::ffi::{CStr, CString};
use std::fmt;
use std::marker::PhantomData;
use std::os::raw::{c_char, c_void};
use std::path::Path;
use std::ptr::{self, NonNull};

/// Element types, numbered as ONNX's TensorProto.DataType (`enum
/// ortkit_type`).  Types without a Rust equivalent (half floats, 4- and
/// 8-bit floats, complex numbers) are read and written as bytes
/// ([`Tensor::as_bytes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ElementType {
    Undefined,
    Float32,
    Uint8,
    Int8,
    Uint16,
    Int16,
    Int32,
    Int64,
    String,
    Bool,
    Float16,
    Float64,
    Uint32,
    Uint64,
    Complex64,
    Complex128,
    Bfloat16,
    Float8E4M3FN,
    Float8E4M3FNUZ,
    Float8E5M2,
    Float8E5M2FNUZ,
    Uint4,
    Int4,
    /// A type newer than this crate.
    Other(i32),
}

const TYPES: [(ElementType, sys::ortkit_type); 23] = [
    (ElementType::Undefined, sys::ORTKIT_TYPE_UNDEFINED),
    (ElementType::Float32, sys::ORTKIT_TYPE_FLOAT32),
    (ElementType::Uint8, sys::ORTKIT_TYPE_UINT8),
    (ElementType::Int8, sys::ORTKIT_TYPE_INT8),
    (ElementType::Uint16, sys::ORTKIT_TYPE_UINT16),
    (ElementType::Int16, sys::ORTKIT_TYPE_INT16),
    (ElementType::Int32, sys::ORTKIT_TYPE_INT32),
    (ElementType::Int64, sys::ORTKIT_TYPE_INT64),
    (ElementType::String, sys::ORTKIT_TYPE_STRING),
    (ElementType::Bool, sys::ORTKIT_TYPE_BOOL),
    (ElementType::Float16, sys::ORTKIT_TYPE_FLOAT16),
    (ElementType::Float64, sys::ORTKIT_TYPE_FLOAT64),
    (ElementType::Uint32, sys::ORTKIT_TYPE_UINT32),
    (ElementType::Uint64, sys::ORTKIT_TYPE_UINT64),
    (ElementType::Complex64, sys::ORTKIT_TYPE_COMPLEX64),
    (ElementType::Complex128, sys::ORTKIT_TYPE_COMPLEX128),
    (ElementType::Bfloat16, sys::ORTKIT_TYPE_BFLOAT16),
    (ElementType::Float8E4M3FN, sys::ORTKIT_TYPE_FLOAT8E4M3FN),
    (ElementType::Float8E4M3FNUZ, sys::ORTKIT_TYPE_FLOAT8E4M3FNUZ),
    (ElementType::Float8E5M2, sys::ORTKIT_TYPE_FLOAT8E5M2),
    (ElementType::Float8E5M2FNUZ, sys::ORTKIT_TYPE_FLOAT8E5M2FNUZ),
    (ElementType::Uint4, sys::ORTKIT_TYPE_UINT4),
    (ElementType::Int4, sys::ORTKIT_TYPE_INT4),
];

impl ElementType {
    /// The type for a C `ortkit_type` value.
    pub fn from_raw(raw: i32) -> ElementType {
        TYPES.iter().find(|(_, r)| *r == raw).map(|(t, _)| *t).unwrap_or(ElementType::Other(raw))
    }

    /// The C `ortkit_type` value.
    pub fn raw(self) -> i32 {
        match self {
            ElementType::Other(r) => r,
            t => TYPES.iter().find(|(e, _)| *e == t).map(|(_, r)| *r).unwrap_or(0),
        }
    }

    /// ortkit's name: `"float32"`, `"int64"`, `"bfloat16"` (`ortkit_type_name`).
    pub fn name(self) -> &'static str {
        // The names are string literals in the library, alive for the process.
        unsafe { cstr_str(sys::ortkit_type_name(self.raw())) }.unwrap_or("undefined")
    }

    /// Bits per element: 4, 8, 16, 32, 64, 128; 0 for strings and undefined.
    pub fn bits(self) -> usize {
        unsafe { sys::ortkit_type_bits(self.raw()) }
    }
}

impl fmt::Display for ElementType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

mod sealed {
    pub trait Sealed {}
}

/// A Rust type a tensor's elements can be read and written as.  Sealed: the
/// numeric types with an ONNX equivalent, and `bool` (one byte, 0 or 1).
pub trait Element: Copy + Send + Sync + 'static + sealed::Sealed {
    /// The ONNX element type it is.
    const TYPE: ElementType;
}

macro_rules! element {
    ($($t:ty => $e:ident),* $(,)?) => {$(
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const TYPE: ElementType = ElementType::$e;
        }
    )*};
}

element! {
    f32 => Float32, f64 => Float64,
    i8 => Int8, i16 => Int16, i32 => Int32, i64 => Int64,
    u8 => Uint8, u16 => Uint16, u32 => Uint32, u64 => Uint64,
    bool => Bool,
}

/// A tensor the program owns: a type, a shape and the data.
///
/// Made from a slice (copied, [`Tensor::from_slice`]), from a `Vec` (moved
/// in, not copied, [`Tensor::from_vec`]), zero-filled ([`Tensor::zeros`]),
/// from strings, from a `.npy` file, or handed back by a run (an output,
/// which owns ONNX Runtime's own buffer: nothing is copied).  A tensor over
/// memory the program keeps is a [`TensorView`] ([`Tensor::borrow`]).
///
/// An output may be fed back as an input (recurrent state) as it is.  The
/// library frees the tensor (`ortkit_tensor_free`) when it is dropped.
pub struct Tensor {
    raw: NonNull<sys::ortkit_tensor>,
    /// The memory a tensor made by `from_vec` points at: dropped after the
    /// C tensor (Drop::drop runs before the fields are dropped).
    _backing: Option<Box<dyn Any + Send + Sync>>,
}

// tensor.h: "A tensor is plain memory plus a type and a shape; it does not
// depend on a runtime."  Its only shared state, the runtime value cached on
// first use as an input, is installed with a compare-and-swap
// (src/runtime/run/run_tensors.c; ARCHITECTURE.md, "concurrent first runs are
// safe"), so one tensor may feed runs on several threads at once; changing
// its data takes `&mut`.  See the crate documentation.
unsafe impl Send for Tensor {}
unsafe impl Sync for Tensor {}

/// A tensor over memory the program keeps (`ortkit_tensor_borrow`): nothing
/// is copied, and the data stays borrowed for `'a`.  It reads as a
/// [`Tensor`] (through `Deref`) and is passed to a run as one.
pub struct TensorView<'a> {
    tensor: Tensor,
    _data: PhantomData<&'a [u8]>,
}

impl<'a> std::ops::Deref for TensorView<'a> {
    type Target = Tensor;
    fn deref(&self) -> &Tensor {
        &self.tensor
    }
}

fn shape_text(shape: &[i64]) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("[{}]", dims.join(","))
}

impl Tensor {
    /// Takes ownership of a tensor the library made.
    ///
    /// # Safety
    /// `raw` must be a live tensor nobody else frees.
    pub unsafe fn from_raw(raw: *mut sys::ortkit_tensor) -> Option<Tensor> {
        NonNull::new(raw).map(|raw| Tensor { raw, _backing: None })
    }

    /// The C tensor, for calls this crate does not wrap.  It stays the
    /// tensor's: do not free it.
    pub fn as_raw(&self) -> *mut sys::ortkit_tensor {
        self.raw.as_ptr()
    }

    fn made(rc: i32, raw: *mut sys::ortkit_tensor) -> Result<Tensor> {
        check(rc)?;
        // ortkit_*_new set *out on success.
        Ok(unsafe { Tensor::from_raw(raw) }.expect("ortkit returned success without a tensor"))
    }

    /// A zero-filled tensor of `T`s (`ortkit_tensor_new`).
    pub fn zeros<T: Element>(shape: &[i64]) -> Result<Tensor> {
        Tensor::new_of(T::TYPE, shape)
    }

    /// A zero-filled tensor of any element type (strings start empty).
    pub fn new_of(element_type: ElementType, shape: &[i64]) -> Result<Tensor> {
        let mut raw = ptr::null_mut();
        let rc = unsafe { sys::ortkit_tensor_new(&mut raw, element_type.raw(), shape.as_ptr(), shape.len()) };
        Tensor::made(rc, raw)
    }

    /// A tensor holding a copy of `data`, whose length must be the shape's
    /// element count.
    pub fn from_slice<T: Element>(shape: &[i64], data: &[T]) -> Result<Tensor> {
        let mut t = Tensor::zeros::<T>(shape)?;
        if t.len() != data.len() {
            return Err(count_error::<T>(shape, t.len(), data.len()));
        }
        t.data_mut::<T>()?.copy_from_slice(data);
        Ok(t)
    }

    /// A tensor over `len` `T`s at `data`, not copied (`ortkit_tensor_borrow`).
    ///
    /// # Safety
    /// The memory must outlive the tensor; the library only reads it.
    unsafe fn over<T: Element>(shape: &[i64], data: *const T, len: usize) -> Result<Tensor> {
        let mut raw = ptr::null_mut();
        let nbytes = len * std::mem::size_of::<T>();
        let rc = sys::ortkit_tensor_borrow(&mut raw, T::TYPE.raw(), shape.as_ptr(), shape.len(), data as *mut c_void, nbytes);
        Tensor::made(rc, raw)
    }

    /// A tensor over `data`, moved in: no copy (`ortkit_tensor_borrow` over
    /// the vector's buffer, which the tensor keeps).
    pub fn from_vec<T: Element>(shape: &[i64], data: Vec<T>) -> Result<Tensor> {
        // The buffer lives in the tensor, dropped after the C tensor.
        let mut t = unsafe { Tensor::over(shape, data.as_ptr(), data.len()) }?;
        // Moving the Vec into the box moves its header, not its buffer.
        t._backing = Some(Box::new(data));
        Ok(t)
    }

    /// A 0-dimensional tensor holding `value`.
    pub fn scalar<T: Element>(value: T) -> Result<Tensor> {
        Tensor::from_slice(&[], &[value])
    }

    /// A tensor over the caller's `data`, without copying
    /// (`ortkit_tensor_borrow`): `data`'s length must be the shape's
    /// element count.  The view borrows `data` for as long as it lives.
    pub fn borrow<'a, T: Element>(shape: &[i64], data: &'a [T]) -> Result<TensorView<'a>> {
        // The view holds the borrow; it gives no way to write the data (no
        // &mut Tensor can be had from a TensorView).
        let tensor = unsafe { Tensor::over(shape, data.as_ptr(), data.len()) }?;
        Ok(TensorView { tensor, _data: PhantomData })
    }

    /// A string tensor holding copies of `strings`, whose length must be the
    /// shape's element count.
    pub fn from_strings<S: AsRef<str>>(shape: &[i64], strings: &[S]) -> Result<Tensor> {
        let t = Tensor::new_of(ElementType::String, shape)?;
        if t.len() != strings.len() {
            return Err(Error::new(
                Code::Shape,
                format!("{} strings given for a string tensor of shape {} ({} elements)",
                        strings.len(), shape_text(shape), t.len()),
            ));
        }
        for (i, s) in strings.iter().enumerate() {
            let c = CString::new(s.as_ref()).map_err(|_| {
                Error::new(Code::InvalidArg, format!("string {} holds a NUL byte: {:?}", i, s.as_ref()))
            })?;
            check(unsafe { sys::ortkit_tensor_set_string(t.raw.as_ptr(), i, c.as_ptr()) })?;
        }
        Ok(t)
    }

    /// Read a `.npy` file (format 1.0 to 3.0, little-endian, C order).
    pub fn read_npy(path: impl AsRef<Path>) -> Result<Tensor> {
        let p = c_path(path.as_ref())?;
        let mut raw = ptr::null_mut();
        let rc = unsafe { sys::ortkit_npy_read(&mut raw, p.as_ptr()) };
        Tensor::made(rc, raw)
    }

    /// Write the tensor as a `.npy` file (atomically: a temporary file
    /// renamed into place).
    pub fn write_npy(&self, path: impl AsRef<Path>) -> Result<()> {
        let p = c_path(path.as_ref())?;
        check(unsafe { sys::ortkit_npy_write(p.as_ptr(), self.raw.as_ptr()) })
    }

    /// The element type.
    pub fn element_type(&self) -> ElementType {
        ElementType::from_raw(unsafe { sys::ortkit_tensor_type(self.raw.as_ptr()) })
    }

    /// The shape (empty for a scalar).
    pub fn shape(&self) -> &[i64] {
        let rank = unsafe { sys::ortkit_tensor_rank(self.raw.as_ptr()) };
        let p = unsafe { sys::ortkit_tensor_shape(self.raw.as_ptr()) };
        if rank == 0 || p.is_null() {
            return &[];
        }
        // The shape lives in the tensor, which outlives the borrow of self.
        unsafe { std::slice::from_raw_parts(p, rank) }
    }

    /// The number of elements (the product of the shape; 1 for a scalar).
    pub fn len(&self) -> usize {
        unsafe { sys::ortkit_tensor_count(self.raw.as_ptr()) }
    }

    /// Whether the tensor has no elements (a dimension is 0).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `"float32[2,3]"` (`ortkit_tensor_describe`).
    pub fn describe(&self) -> String {
        let mut buf = [0 as c_char; 256];
        unsafe { sys::ortkit_tensor_describe(self.raw.as_ptr(), buf.as_mut_ptr(), buf.len()) };
        unsafe { CStr::from_ptr(buf.as_ptr()) }.to_string_lossy().into_owned()
    }

    /// The element data as bytes (empty for strings).
    pub fn as_bytes(&self) -> &[u8] {
        let n = unsafe { sys::ortkit_tensor_nbytes(self.raw.as_ptr()) };
        let p = unsafe { sys::ortkit_tensor_data(self.raw.as_ptr()) } as *const u8;
        if n == 0 || p.is_null() {
            return &[];
        }
        unsafe { std::slice::from_raw_parts(p, n) }
    }

    fn typed<T: Element>(&self) -> Result<(*mut T, usize)> {
        if self.element_type() != T::TYPE {
            return Err(Error::new(
                Code::Shape,
                format!("the tensor is {}, not {}", self.describe(), T::TYPE.name()),
            ));
        }
        let n = self.len();
        let p = unsafe { sys::ortkit_tensor_data(self.raw.as_ptr()) } as *mut T;
        if n == 0 || p.is_null() {
            return Ok((NonNull::dangling().as_ptr(), 0));
        }
        if (p as usize) % std::mem::align_of::<T>() != 0 {
            return Err(Error::new(
                Code::Unsupported,
                format!("the data of tensor {} is not aligned for {}", self.describe(), T::TYPE.name()),
            ));
        }
        Ok((p, n))
    }

    /// The elements as a slice of `T`, which must be the tensor's element
    /// type (an error with code [`Code::Shape`] otherwise).  For `bool` each
    /// byte must be 0 or 1.
    pub fn data<T: Element>(&self) -> Result<&[T]> {
        let (p, n) = self.typed::<T>()?;
        if T::TYPE == ElementType::Bool {
            check_bools(unsafe { std::slice::from_raw_parts(p as *const u8, n) })?;
        }
        Ok(unsafe { std::slice::from_raw_parts(p, n) })
    }

    /// The elements as a mutable slice of `T` (the tensor's own type).
    pub fn data_mut<T: Element>(&mut self) -> Result<&mut [T]> {
        let (p, n) = self.typed::<T>()?;
        if T::TYPE == ElementType::Bool {
            check_bools(unsafe { std::slice::from_raw_parts(p as *const u8, n) })?;
        }
        Ok(unsafe { std::slice::from_raw_parts_mut(p, n) })
    }

    /// A copy of the elements.
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        self.data::<T>().map(|d| d.to_vec())
    }

    /// The strings of a string tensor (an error for other types, or for a
    /// string that is not UTF-8).
    pub fn strings(&self) -> Result<Vec<&str>> {
        if self.element_type() != ElementType::String {
            return Err(Error::new(Code::Shape, format!("the tensor is {}, not strings", self.describe())));
        }
        (0..self.len())
            .map(|i| {
                let p = unsafe { sys::ortkit_tensor_string(self.raw.as_ptr(), i) };
                // Alive as long as the tensor; only &mut self could change it.
                unsafe { cstr_str(p) }.ok_or_else(|| {
                    Error::new(Code::Format, format!("string {} of tensor {} is not UTF-8", i, self.describe()))
                })
            })
            .collect()
    }
}

fn check_bools(bytes: &[u8]) -> Result<()> {
    match bytes.iter().position(|&b| b > 1) {
        None => Ok(()),
        Some(i) => Err(Error::new(Code::Format, format!("bool element {} holds {}, not 0 or 1", i, bytes[i]))),
    }
}

fn count_error<T: Element>(shape: &[i64], want: usize, got: usize) -> Error {
    Error::new(
        Code::Shape,
        format!("{} values given for {}{} ({} elements)", got, T::TYPE.name(), shape_text(shape), want),
    )
}

impl Drop for Tensor {
    fn drop(&mut self) {
        unsafe { sys::ortkit_tensor_free(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for Tensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tensor({})", self.describe())
    }
}

impl<'a> fmt::Debug for TensorView<'a> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TensorView({})", self.describe())
    }
}
