// The catalogue's door for the operators' media screen (server/modules/admin/media-library.ts): every video with
// its course and chapter, filtered, sorted and paged, with a condition on the media state from the media module.
export { countStaffVideos, searchStaffVideos, type StaffVideoFilter } from './staff-videos.repository.ts'
