//! The processes of a search in parts as the processes of an MPI job (`mpirun -np N`): what
//! clusters run. Rounds of a level are `MPI_Alltoall` (the byte counts) and `MPI_Alltoallv`
//! (the encoded offsets); level counts and the other small agreements are `MPI_Allgather`.
//!
//! MPI's default error handler ends the whole job on a communication error, so the calls
//! below return no error of their own; a process that dies makes `mpirun` end the others.
//!
//! A process that reaches a collective call before the others waits for them asleep
//! ([`Mpi::meet`]): Open MPI's blocking calls poll, and a poller on a machine whose cores the
//! processes share takes the core the process still working needs (docs/SCALE.md, round 6).

use std::time::Duration;

use mpi::collective::CommunicatorCollectives;
use mpi::datatype::{Partition, PartitionMut};
use mpi::environment::Universe;
use mpi::topology::{Communicator, SimpleCommunicator};

use super::{Exchange, ExchangeError};

/// This process's place in the MPI job (`MPI_COMM_WORLD`); MPI ends when it is dropped.
pub struct Mpi {
    world: SimpleCommunicator,
    /// Held so that MPI is finalized last.
    _universe: Universe,
}

impl Mpi {
    /// Initializes MPI (once per process): `None` if it was initialized already.
    pub fn init() -> Option<Mpi> {
        let universe = mpi::initialize()?;
        Some(Mpi {
            world: universe.world(),
            _universe: universe,
        })
    }

    /// Returns once every process has called it, sleeping between looks at a non-blocking
    /// barrier (first after [`FIRST_PAUSE`], each pause twice the last, at most
    /// [`LONGEST_PAUSE`]), so that a process waiting for another leaves its core to it. The
    /// collective call that follows then finds every process there and polls only while the
    /// bytes move.
    fn meet(&self) {
        let mut barrier = self.world.immediate_barrier();
        let mut pause = FIRST_PAUSE;
        loop {
            match barrier.test() {
                Ok(_) => return,
                Err(waiting) => barrier = waiting,
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(LONGEST_PAUSE);
        }
    }

    /// The MPI library's version text, for reports.
    pub fn library() -> String {
        mpi::environment::library_version().unwrap_or_default()
    }
}

/// The first sleep of a process waiting for the others ([`Mpi::meet`]).
const FIRST_PAUSE: Duration = Duration::from_micros(20);

/// The longest: how late a process can notice that the others have come, against rounds of
/// tens of milliseconds to seconds.
const LONGEST_PAUSE: Duration = Duration::from_millis(1);

impl Exchange for Mpi {
    fn rank(&self) -> u32 {
        self.world.rank() as u32
    }

    fn size(&self) -> u32 {
        self.world.size() as u32
    }

    fn on_this_machine(&self) -> u32 {
        // The processes that can share memory with this one: those on its node.
        self.world.split_shared(self.world.rank()).size().max(1) as u32
    }

    fn all_to_all(&mut self, outgoing: &[Vec<u8>]) -> Result<Vec<Vec<u8>>, ExchangeError> {
        let count = |n: usize| {
            i32::try_from(n)
                .map_err(|_| ExchangeError(format!("{n} bytes are too many for one MPI call")))
        };
        let counts = outgoing
            .iter()
            .map(|v| count(v.len()))
            .collect::<Result<Vec<i32>, _>>()?;
        let mut incoming = vec![0i32; outgoing.len()];
        self.meet();
        self.world.all_to_all_into(&counts[..], &mut incoming[..]);
        let starts = |c: &[i32]| -> Vec<i32> {
            c.iter()
                .scan(0i32, |at, &n| {
                    let here = *at;
                    *at += n;
                    Some(here)
                })
                .collect()
        };
        let (send_at, recv_at) = (starts(&counts), starts(&incoming));
        let total: usize = incoming.iter().map(|&n| n as usize).sum();
        count(total)?;
        // Never an empty allocation: an empty `Vec<u8>`'s pointer is 1, which Open MPI reads
        // as MPI_IN_PLACE (and refuses as a receive buffer).
        let sent: usize = outgoing.iter().map(Vec::len).sum();
        let mut send: Vec<u8> = Vec::with_capacity(sent.max(1));
        outgoing.iter().for_each(|o| send.extend_from_slice(o));
        let mut received = vec![0u8; total.max(1)];
        {
            let from = Partition::new(&send[..], &counts[..], &send_at[..]);
            let mut into = PartitionMut::new(&mut received[..total], &incoming[..], &recv_at[..]);
            self.world.all_to_all_varcount_into(&from, &mut into);
        }
        Ok(incoming
            .iter()
            .zip(&recv_at)
            .map(|(&n, &at)| received[at as usize..(at + n) as usize].to_vec())
            .collect())
    }

    fn all_gather_each(&mut self, values: &[u64]) -> Result<Vec<Vec<u64>>, ExchangeError> {
        let (n, size) = (values.len(), self.world.size() as usize);
        // Process-major as MPI gathers them: process p's values at p * n.
        let mut all = vec![0u64; n * size];
        if n > 0 {
            self.meet();
            self.world.all_gather_into(values, &mut all[..]);
        }
        Ok((0..n)
            .map(|k| (0..size).map(|p| all[p * n + k]).collect())
            .collect())
    }

    fn abort(&mut self, code: i32) {
        self.world.abort(code)
    }
}
